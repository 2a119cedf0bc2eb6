import type { RedfishClient } from "./client.js";
import { RedfishHttpError } from "./errors.js";
import type { ServiceMetadata } from "./metadata.js";
import { parseServiceMetadataCached } from "./metadataCache.js";
import { lastSegment } from "./path.js";
import { checkResource, type Diagnostic, type ServiceRoot } from "./resources/index.js";

/**
 * What driver detection looks at: the service root (read anonymously when the BMC allows it), the
 * `$metadata` namespaces, and the ids of systems, managers and chassis (when the client can read them).
 */
export interface ServiceProbe {
  serviceRoot: ServiceRoot;
  /** `Vendor`, else the first `Oem` key (Supermicro has no `Vendor`). */
  vendor: string | undefined;
  product: string | undefined;
  oemKeys: string[];
  metadata: ServiceMetadata | undefined;
  systemIds: string[];
  managerIds: string[];
  chassisIds: string[];
  diagnostics: Diagnostic[];
}

export interface ProbeOptions {
  /**
   * Read the systems, managers and chassis collections (default true). False for a probe without credentials:
   * a BMC refuses those to anonymous readers.
   */
  readonly members?: boolean;
  /**
   * A probe of the same BMC made with `members: false`: its service root, `$metadata` and diagnostics are
   * taken as they are, and only the member collections are read now.
   */
  readonly described?: ServiceProbe;
}

/** Reads everything detection needs; only the service root itself is mandatory. */
export async function probeService(client: RedfishClient, options: ProbeOptions = {}): Promise<ServiceProbe> {
  const rootPath = "/redfish/v1";
  const described = options.described;
  const serviceRoot = described?.serviceRoot ?? (await readServiceRoot(client));
  const diagnostics = described
    ? [...described.diagnostics]
    : checkResource("ServiceRoot", rootPath, serviceRoot);
  const oemKeys = Object.keys(serviceRoot.Oem ?? {});
  const vendor = nonEmpty(serviceRoot.Vendor) ?? oemKeys[0];
  const members = (path: string | undefined) =>
    options.members === false ? Promise.resolve([]) : memberIds(client, path, diagnostics);

  const [metadata, systemIds, managerIds, chassisIds] = await Promise.all([
    described
      ? described.metadata
      : client
          .getText(`${rootPath}/$metadata`, { anonymous: true })
          .then(parseServiceMetadataCached)
          .catch((error: unknown) => {
            diagnostics.push({ severity: "info", path: `${rootPath}/$metadata`, message: messageOf(error) });
            return undefined;
          }),
    members(serviceRoot.Systems?.["@odata.id"]),
    members(serviceRoot.Managers?.["@odata.id"]),
    members(serviceRoot.Chassis?.["@odata.id"]),
  ]);
  return {
    serviceRoot,
    vendor,
    product: nonEmpty(serviceRoot.Product),
    oemKeys,
    metadata,
    systemIds,
    managerIds,
    chassisIds,
    diagnostics,
  };
}

async function readServiceRoot(client: RedfishClient): Promise<ServiceRoot> {
  try {
    return await client.get<ServiceRoot>("/redfish/v1", { anonymous: true });
  } catch (error) {
    // Some BMCs refuse anonymous reads of the root; try again with credentials.
    if (error instanceof RedfishHttpError && (error.httpStatus === 401 || error.httpStatus === 403)) {
      return client.get<ServiceRoot>("/redfish/v1");
    }
    throw error;
  }
}

async function memberIds(
  client: RedfishClient,
  path: string | undefined,
  diagnostics: Diagnostic[],
): Promise<string[]> {
  if (!path) return [];
  try {
    return (await client.listMembers(path)).map(lastSegment);
  } catch (error) {
    diagnostics.push({ severity: "warning", path, message: messageOf(error) });
    return [];
  }
}

function nonEmpty(value: string | undefined | null): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
