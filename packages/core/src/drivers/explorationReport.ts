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
  /** Trimmed; pairing and machine ids are derived from it. */
  serialNumber: string | undefined;
  sku: string | undefined;
  uuid: string | undefined;
  powerState: PowerState;
  biosVersion: string | undefined;
  bootOrder: string[];
  ethernetInterfaces: EthernetInterfaceInfo[];
  pcieDevices: PcieDeviceInfo[];
  /** DPU only: host-facing base MAC and mode, when the driver can read them. */
  baseMac?: string;
  nicMode?: NicMode;
}

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
  vendor: string | undefined;
  product: string | undefined;
  redfishVersion: string | undefined;
  /** The driver that produced this report and every candidate scored during selection. */
  driver: { name: string; pinned: boolean };
  candidates: DriverCandidate[];
  managers: ExploredManager[];
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
