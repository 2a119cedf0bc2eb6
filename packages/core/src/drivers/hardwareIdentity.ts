import {
  type RedfishClient,
  RedfishHttpError,
  type RedfishObject,
  type ServiceProbe,
} from "../redfish/index.js";

/** A resource's make and model as the BMC states them (absent fields were empty or not read). */
export interface HardwareModel {
  id: string;
  manufacturer?: string;
  model?: string;
}

/**
 * What the second detection step sees: the first system's and the first manager's make and model, read once
 * with the credentials and shared by every candidate driver. A part that could not be read is absent.
 */
export interface HardwareIdentity {
  system?: HardwareModel & { sku?: string; systemType?: string };
  manager?: HardwareModel & { firmwareVersion?: string };
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

function model(id: string, resource: RedfishObject): HardwareModel {
  const manufacturer = nonEmpty(resource.Manufacturer);
  const name = nonEmpty(resource.Model);
  return { id, ...(manufacturer ? { manufacturer } : {}), ...(name ? { model: name } : {}) };
}

/**
 * Reads the first system and manager the probe listed (two GETs, in parallel). A read that fails is left out
 * and noted in the probe's diagnostics: detection then runs on what the service root said.
 */
export async function readHardwareIdentity(
  client: RedfishClient,
  probe: ServiceProbe,
): Promise<HardwareIdentity> {
  const root = probe.serviceRoot;
  // Read as plain objects: detection wants a few strings, whatever else the resource holds.
  const read = async (collection: string, id: string | undefined) => {
    if (id === undefined) return undefined;
    const path = `${collection}/${encodeURIComponent(id)}`;
    try {
      return await client.get<RedfishObject>(path);
    } catch (error) {
      const status = error instanceof RedfishHttpError ? ` (HTTP ${error.httpStatus})` : "";
      probe.diagnostics.push({
        severity: "info",
        path,
        message: `not read for driver detection${status}: ${(error as Error).message}`,
      });
      return undefined;
    }
  };
  const systemId = probe.systemIds[0];
  const managerId = probe.managerIds[0];
  const [system, manager] = await Promise.all([
    read(root.Systems?.["@odata.id"] ?? "/redfish/v1/Systems", systemId),
    read(root.Managers?.["@odata.id"] ?? "/redfish/v1/Managers", managerId),
  ]);
  const identity: HardwareIdentity = {};
  if (system && systemId !== undefined) {
    const sku = nonEmpty(system.SKU);
    const systemType = nonEmpty(system.SystemType);
    identity.system = {
      ...model(systemId, system),
      ...(sku ? { sku } : {}),
      ...(systemType ? { systemType } : {}),
    };
  }
  if (manager && managerId !== undefined) {
    const firmwareVersion = nonEmpty(manager.FirmwareVersion);
    identity.manager = { ...model(managerId, manager), ...(firmwareVersion ? { firmwareVersion } : {}) };
  }
  return identity;
}
