import type { BmcDriver } from "../drivers/bmcDriver.js";
import type {
  ExplorationReport,
  ExploredChassis,
  ExploredManager,
  ExploredSystem,
} from "../drivers/explorationReport.js";
import type { EthernetInterfaceInfo } from "../drivers/types.js";
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
import { readHardwareShapes } from "./hardwareShapes.js";
import {
  assetIdentity,
  text,
  toEthernetInterfaceInfos,
  toNetworkAdapterInfo,
  toPowerState,
  trimSerial,
} from "./mappers.js";

/**
 * Builds the exploration report for a BMC through its driver. Every sub-resource is read on its own: a
 * failure becomes a diagnostic naming the path, never a failed report. Optional statuses the driver does
 * not support (lockdown on a standard BMC) are simply left out.
 *
 * Each resource is fetched once however many parts of the report (and of the driver) read it, and a BMC that
 * advertises `$expand` hands over the members of a collection with the collection.
 */
export async function exploreWithDriver(driver: BmcDriver, probe: ServiceProbe): Promise<ExplorationReport> {
  return driver.client.readingOnce(() => readReport(driver, probe));
}

async function readReport(driver: BmcDriver, probe: ServiceProbe): Promise<ExplorationReport> {
  const started = Date.now();
  const diagnostics: Diagnostic[] = [...probe.diagnostics];
  const expand = probe.serviceRoot.ProtocolFeaturesSupported?.ExpandQuery?.Levels === true;
  const reader = new ResourceReader(driver, diagnostics, expand);
  const root = probe.serviceRoot;
  const systemsPath = root.Systems?.["@odata.id"] ?? "/redfish/v1/Systems";
  const managersPath = root.Managers?.["@odata.id"] ?? "/redfish/v1/Managers";
  const chassisPath = root.Chassis?.["@odata.id"] ?? "/redfish/v1/Chassis";
  // A BMC that lists no computer system (a switch tray's, a power shelf's) has no host to read.
  const listsNoSystem =
    probe.systemIds.length === 0 && !probe.diagnostics.some((d) => d.path === systemsPath);
  const primarySystemId = listsNoSystem
    ? undefined
    : await reader.attempt("/redfish/v1/Systems", () => driver.systemId());
  const hostOnly = <T>(read: () => Promise<T>) => (listsNoSystem ? Promise.resolve(undefined) : read());

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
        probe.chassisIds.map((id) =>
          exploreChassis(reader, `${chassisPath}/${encodeURIComponent(id)}`, !listsNoSystem),
        ),
      ),
      reader.optional("/redfish/v1/UpdateService", () => driver.firmwareInventory()),
      hostOnly(() => reader.optional("lockdown", () => driver.lockdownStatus())),
      hostOnly(() => reader.optional("secure boot", () => driver.secureBootStatus())),
      hostOnly(() => reader.optional("machine setup", () => driver.machineSetupStatus({}))),
    ]);
  const shapes = await readHardwareShapes({
    reader,
    client: driver.client,
    root,
    diagnostics,
    systems: probe.systemIds.map((id, i) => ({
      id,
      path: `${systemsPath}/${encodeURIComponent(id)}`,
      explored: systems[i],
    })),
    chassis: probe.chassisIds.map((id, i) => ({
      path: `${chassisPath}/${encodeURIComponent(id)}`,
      explored: chassis[i],
    })),
    primarySystemId,
    listsNoSystem,
  });

  return {
    endpointType: "bmc",
    endpointKind: shapes.kind,
    endpointKindReason: shapes.reason,
    vendor: probe.vendor,
    product: probe.product,
    redfishVersion: text(root.RedfishVersion),
    driver: { name: driver.name, pinned: false },
    candidates: [],
    managers: managers.filter((m): m is ExploredManager => m !== undefined),
    systems: shapes.systems,
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
  private readonly read = new Map<string, RedfishObject>();

  constructor(
    private readonly driver: BmcDriver,
    private readonly diagnostics: Diagnostic[],
    /** The BMC advertises `$expand`: collections whose members are read come with them. */
    readonly expand: boolean,
  ) {}

  async resource<T extends RedfishObject>(kind: ResourceKind, path: string): Promise<T | undefined> {
    const resource = await this.attempt(path, () => this.driver.client.get<T>(path));
    if (resource) {
      this.diagnostics.push(...checkResource(kind, path, resource));
      this.read.set(path, resource);
    }
    return resource;
  }

  /** A resource read above, by the path it was read at. */
  cached(path: string): RedfishObject | undefined {
    return this.read.get(path);
  }

  async members<T extends RedfishObject>(kind: ResourceKind, path: string | undefined): Promise<T[]> {
    if (!path) return [];
    const ids = (await this.attempt(path, () => this.listMembers(path, true))) ?? [];
    const resources = await Promise.all(ids.map((id) => this.resource<T>(kind, id)));
    return resources.filter((r): r is Awaited<T> => r !== undefined);
  }

  /** A collection's member ids; `readingThem` asks for the members too when the BMC can expand. */
  listMembers(path: string, readingThem: boolean): Promise<string[]> {
    return this.driver.client.listMembers(path, { expand: readingThem && this.expand });
  }

  /** Starts listing (and, expanded, reading) a collection a later step reads; that step gets this answer. */
  prefetch(path: string | undefined): void {
    if (path) this.listMembers(path, true).catch(() => undefined);
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

  /** Field checks of what was read through the driver rather than here. */
  check(kind: ResourceKind, path: string, body: unknown): void {
    this.diagnostics.push(...checkResource(kind, path, body));
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
    ethernetInterfaces: toEthernetInterfaceInfos(interfaces),
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
  const [interfaces, baseMac, nicMode] = await Promise.all([
    primary
      ? driverInterfaces(
          reader,
          driver,
          system.EthernetInterfaces?.["@odata.id"] ?? `${path}/EthernetInterfaces`,
        )
      : reader
          .members<EthernetInterface>("EthernetInterface", system.EthernetInterfaces?.["@odata.id"])
          .then(toEthernetInterfaceInfos),
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
    ethernetInterfaces: interfaces,
    pcieDevices: [], // every system's, once each: readHardwareShapes
    ...(baseMac ? { baseMac } : {}),
    ...(nicMode ? { nicMode } : {}),
  };
}

async function exploreChassis(
  reader: ResourceReader,
  path: string,
  listsSystems: boolean,
): Promise<ExploredChassis | undefined> {
  const chassis = await reader.resource<Chassis>("Chassis", path);
  if (!chassis) return undefined;
  // A host's PCIe devices are read under their chassis (readHardwareShapes): start now, not a round trip later.
  if (listsSystems) reader.prefetch(chassis.PCIeDevices?.["@odata.id"]);
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

/**
 * The primary system's interfaces as its driver reports them (so an override shows in the report), each
 * checked as if read here; a virtual (VLAN) interface needs no UEFI device path.
 */
async function driverInterfaces(
  reader: ResourceReader,
  driver: BmcDriver,
  collection: string,
): Promise<EthernetInterfaceInfo[]> {
  const interfaces = (await reader.attempt(collection, () => driver.systemEthernetInterfaces())) ?? [];
  for (const nic of interfaces) {
    reader.check("EthernetInterface", `${collection}/${encodeURIComponent(nic.id)}`, {
      Id: nic.id,
      MACAddress: nic.mac ?? null,
      UefiDevicePath: nic.uefiDevicePath ?? (nic.interfaceType === "Virtual" ? null : undefined),
    });
  }
  return interfaces;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
