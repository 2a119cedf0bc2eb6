import type { Diagnostic } from "../redfish/index.js";
import type {
  EthernetInterfaceInfo,
  FirmwareComponent,
  MachineSetupStatus,
  NetworkAdapterInfo,
  NicMode,
  PcieDeviceInfo,
  PowerState,
  SecureBootStatus,
  TriStateStatus,
} from "./types.js";

/** A driver that was considered for a BMC and its detection score. */
export interface DriverCandidate {
  name: string;
  score: number;
}

export interface ExploredManager {
  id: string;
  firmwareVersion: string | undefined;
  uuid: string | undefined;
  model: string | undefined;
  ethernetInterfaces: EthernetInterfaceInfo[];
}

export interface ExploredSystem {
  id: string;
  manufacturer: string | undefined;
  model: string | undefined;
  /**
   * Trimmed; pairing and machine ids are derived from it. When the system's own `SerialNumber` is empty, the
   * serial of the chassis that holds it (`serialNumberSource` says which).
   */
  serialNumber: string | undefined;
  /** Set only when `serialNumber` is a chassis' because the system's own is empty. */
  serialNumberSource?: SerialNumberSource;
  /** The system the driver manages and the lifecycle drives (listed first); see `choosePrimarySystem`. */
  primary?: boolean;
  /** `SystemType` as the BMC gives it (`Physical`, `DPU`, …). */
  systemType?: string;
  sku: string | undefined;
  uuid: string | undefined;
  powerState: PowerState;
  biosVersion: string | undefined;
  bootOrder: string[];
  /**
   * For the driver's own system, what its `systemEthernetInterfaces()` returns. VLAN interfaces are listed too,
   * marked `interfaceType: "Virtual"`: they share their parent's MAC and are not another NIC.
   */
  ethernetInterfaces: EthernetInterfaceInfo[];
  /** The devices that belong to this system, each device of the BMC under one system only. */
  pcieDevices: ExploredPcieDevice[];
  /** DPU only: host-facing base MAC and mode, when the driver can read them. */
  baseMac?: string;
  nicMode?: NicMode;
}

/** Where a system's serial came from when its own `SerialNumber` is empty. */
export interface SerialNumberSource {
  /** The chassis whose serial the system reports. */
  chassisId: string;
  /**
   * What ties that chassis to the system: the system's `Links.Chassis`, the chassis' `Links.ComputerSystems`,
   * or the same `Id`.
   */
  via: "Links.Chassis" | "Links.ComputerSystems" | "Id";
}

/** A PCIe device with the system it is reported under and the chassis that holds it. */
export interface ExploredPcieDevice extends PcieDeviceInfo {
  systemId: string;
  /** The chassis whose `PCIeDevices` collection lists it, else the one its URL names. */
  chassisId: string | undefined;
}

/**
 * What a BMC manages: a `host` (a server, or a DPU's own BMC), a `switch` (an NVLink switch tray), a
 * `powerShelf`, or `unknown` (none of these shows). Only hosts are ingested as managed hosts.
 */
export type EndpointKind = "host" | "switch" | "powerShelf" | "unknown";

export interface ExploredChassis {
  id: string;
  chassisType: string | undefined;
  manufacturer: string | undefined;
  model: string | undefined;
  partNumber: string | undefined;
  serialNumber: string | undefined;
  networkAdapters: NetworkAdapterInfo[];
}

/**
 * What one BMC yields to the site explorer (NICo's `EndpointExplorationReport`, in camelCase JSON). A
 * sub-resource that cannot be read becomes a diagnostic; it never fails the whole report.
 */
export interface ExplorationReport {
  endpointType: "bmc";
  /** See `EndpointKind` and `classifyEndpoint`. */
  endpointKind: EndpointKind;
  /** The evidence for `endpointKind`, in words (`chassis MGX_NVSwitch_0 (Enclosure); Fabrics list 2 switches`). */
  endpointKindReason: string;
  vendor: string | undefined;
  product: string | undefined;
  redfishVersion: string | undefined;
  /** The driver that produced this report and every candidate scored during selection. */
  driver: { name: string; pinned: boolean };
  candidates: DriverCandidate[];
  managers: ExploredManager[];
  /** The primary system first, then the others in collection order. */
  systems: ExploredSystem[];
  chassis: ExploredChassis[];
  firmware: FirmwareComponent[];
  /** OEM schema namespaces published in `$metadata`. */
  oemNamespaces: string[];
  lockdownStatus?: TriStateStatus;
  machineSetupStatus?: MachineSetupStatus;
  secureBootStatus?: SecureBootStatus;
  diagnostics: Diagnostic[];
  exploredAt: string;
  durationMs: number;
}
