import type { BmcDriver } from "../drivers/bmcDriver.js";
import type {
  ExplorationReport,
  ExploredChassis,
  ExploredManager,
  ExploredSystem,
} from "../drivers/explorationReport.js";
import { isNotSupported } from "../errors/index.js";
import {
  type Chassis,
  type ComputerSystem,
  checkResource,
  type Diagnostic,
  type EthernetInterface,
  type Manager,
  type NetworkAdapter,
  type RedfishObject,
  type ResourceKind,
  type ServiceProbe,
} from "../redfish/index.js";
import {
  assetIdentity,
  text,
  toEthernetInterfaceInfo,
  toNetworkAdapterInfo,
  toPowerState,
  trimSerial,
} from "./mappers.js";

/**
 * Builds the exploration report for a BMC through its driver. Every sub-resource is read on its own: a
 * failure becomes a diagnostic naming the path, never a failed report. Optional statuses the driver does
 * not support (lockdown on a standard BMC) are simply left out.
 */
export async function exploreWithDriver(driver: BmcDriver, probe: ServiceProbe): Promise<ExplorationReport> {
  const started = Date.now();
  const diagnostics: Diagnostic[] = [...probe.diagnostics];
  const reader = new ResourceReader(driver, diagnostics);
  const root = probe.serviceRoot;
  const systemsPath = root.Systems?.["@odata.id"] ?? "/redfish/v1/Systems";
  const managersPath = root.Managers?.["@odata.id"] ?? "/redfish/v1/Managers";
  const chassisPath = root.Chassis?.["@odata.id"] ?? "/redfish/v1/Chassis";
  const primarySystemId = await reader.attempt("/redfish/v1/Systems", () => driver.systemId());

  const [managers, systems, chassis, firmware, lockdownStatus, secureBootStatus, machineSetupStatus] =
    await Promise.all([
      Promise.all(
        probe.managerIds.map((id) => exploreManager(reader, `${managersPath}/${encodeURIComponent(id)}`)),
      ),
      Promise.all(
        probe.systemIds.map((id) =>
          exploreSystem(reader, `${systemsPath}/${encodeURIComponent(id)}`, driver, id === primarySystemId),
        ),
      ),
      Promise.all(
        probe.chassisIds.map((id) => exploreChassis(reader, `${chassisPath}/${encodeURIComponent(id)}`)),
      ),
      reader.optional("/redfish/v1/UpdateService", () => driver.firmwareInventory()),
      reader.optional("lockdown", () => driver.lockdownStatus()),
      reader.optional("secure boot", () => driver.secureBootStatus()),
      reader.optional("machine setup", () => driver.machineSetupStatus({})),
    ]);

  return {
    endpointType: "bmc",
    vendor: probe.vendor,
    product: probe.product,
    redfishVersion: text(root.RedfishVersion),
    driver: { name: driver.name, pinned: false },
    candidates: [],
    managers: managers.filter((m): m is ExploredManager => m !== undefined),
    systems: systems.filter((s): s is ExploredSystem => s !== undefined),
    chassis: chassis.filter((c): c is ExploredChassis => c !== undefined),
    firmware: firmware ?? [],
    oemNamespaces: probe.metadata?.oemNamespaces ?? [],
    ...(lockdownStatus ? { lockdownStatus } : {}),
    ...(secureBootStatus ? { secureBootStatus } : {}),
    ...(machineSetupStatus ? { machineSetupStatus } : {}),
    diagnostics,
    exploredAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  };
}

/** Reads resources for the report, turning failures into diagnostics. */
class ResourceReader {
  constructor(
    private readonly driver: BmcDriver,
    private readonly diagnostics: Diagnostic[],
  ) {}

  async resource<T extends RedfishObject>(kind: ResourceKind, path: string): Promise<T | undefined> {
    const resource = await this.attempt(path, () => this.driver.client.get<T>(path));
    if (resource) this.diagnostics.push(...checkResource(kind, path, resource));
    return resource;
  }

  async members<T extends RedfishObject>(kind: ResourceKind, path: string | undefined): Promise<T[]> {
    if (!path) return [];
    const ids = (await this.attempt(path, () => this.driver.client.listMembers(path))) ?? [];
    const resources = await Promise.all(ids.map((id) => this.resource<T>(kind, id)));
    return resources.filter((r): r is Awaited<T> => r !== undefined);
  }

  async attempt<T>(path: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      this.diagnostics.push({ severity: "warning", path, message: messageOf(error), unread: true });
      return undefined;
    }
  }

  /** Like attempt, but an unsupported operation is expected and not worth a diagnostic. */
  async optional<T>(path: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      if (!isNotSupported(error)) {
        this.diagnostics.push({ severity: "warning", path, message: messageOf(error), unread: true });
      }
      return undefined;
    }
  }
}

async function exploreManager(reader: ResourceReader, path: string): Promise<ExploredManager | undefined> {
  const manager = await reader.resource<Manager>("Manager", path);
  if (!manager) return undefined;
  const interfaces = await reader.members<EthernetInterface>(
    "ManagerEthernetInterface",
    manager.EthernetInterfaces?.["@odata.id"],
  );
  return {
    id: manager.Id ?? "",
    firmwareVersion: text(manager.FirmwareVersion),
    uuid: text(manager.UUID),
    model: text(manager.Model),
    ethernetInterfaces: interfaces.map(toEthernetInterfaceInfo),
  };
}

async function exploreSystem(
  reader: ResourceReader,
  path: string,
  driver: BmcDriver,
  primary: boolean,
): Promise<ExploredSystem | undefined> {
  const system = await reader.resource<ComputerSystem>("ComputerSystem", path);
  if (!system) return undefined;
  const [interfaces, pcieDevices, baseMac, nicMode] = await Promise.all([
    reader.members<EthernetInterface>("EthernetInterface", system.EthernetInterfaces?.["@odata.id"]),
    primary ? reader.optional(`${path}/PCIeDevices`, () => driver.pcieDevices()) : Promise.resolve(undefined),
    primary ? reader.optional("base MAC", () => driver.baseMac()) : Promise.resolve(undefined),
    primary ? reader.optional("NIC mode", () => driver.nicMode()) : Promise.resolve(undefined),
  ]);
  return {
    id: system.Id ?? "",
    manufacturer: text(system.Manufacturer),
    model: text(system.Model),
    serialNumber: trimSerial(system.SerialNumber),
    sku: text(system.SKU),
    uuid: text(system.UUID),
    powerState: toPowerState(system.PowerState),
    biosVersion: text(system.BiosVersion),
    bootOrder: system.Boot?.BootOrder ?? [],
    ethernetInterfaces: interfaces.map(toEthernetInterfaceInfo),
    pcieDevices: pcieDevices ?? [],
    ...(baseMac ? { baseMac } : {}),
    ...(nicMode ? { nicMode } : {}),
  };
}

async function exploreChassis(reader: ResourceReader, path: string): Promise<ExploredChassis | undefined> {
  const chassis = await reader.resource<Chassis>("Chassis", path);
  if (!chassis) return undefined;
  const adapters = await reader.members<NetworkAdapter>(
    "NetworkAdapter",
    chassis.NetworkAdapters?.["@odata.id"],
  );
  return {
    id: chassis.Id ?? "",
    chassisType: text(chassis.ChassisType),
    ...assetIdentity(chassis),
    networkAdapters: adapters.map((adapter) => toNetworkAdapterInfo(adapter, chassis.Id ?? "")),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
