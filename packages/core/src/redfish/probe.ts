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

/** Reads everything detection needs; only the service root itself is mandatory. */
export async function probeService(client: RedfishClient): Promise<ServiceProbe> {
  const rootPath = "/redfish/v1";
  const serviceRoot = await readServiceRoot(client);
  const diagnostics = checkResource("ServiceRoot", rootPath, serviceRoot);
  const oemKeys = Object.keys(serviceRoot.Oem ?? {});
  const vendor = nonEmpty(serviceRoot.Vendor) ?? oemKeys[0];

  const [metadata, systemIds, managerIds, chassisIds] = await Promise.all([
    client
      .getText(`${rootPath}/$metadata`, { anonymous: true })
      .then(parseServiceMetadataCached)
      .catch((error: unknown) => {
        diagnostics.push({ severity: "info", path: `${rootPath}/$metadata`, message: messageOf(error) });
        return undefined;
      }),
    memberIds(client, serviceRoot.Systems?.["@odata.id"], diagnostics),
    memberIds(client, serviceRoot.Managers?.["@odata.id"], diagnostics),
    memberIds(client, serviceRoot.Chassis?.["@odata.id"], diagnostics),
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
