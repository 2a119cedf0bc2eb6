import type { BiosValue } from "../redfish/index.js";

/** Power actions a driver accepts; `ACPowercycle` removes auxiliary power too (vendor-specific). */
export const POWER_ACTIONS = [
  "On",
  "ForceOff",
  "GracefulShutdown",
  "GracefulRestart",
  "ForceRestart",
  "PowerCycle",
  "ACPowercycle",
] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

export type PowerState = "On" | "Off" | "PoweringOn" | "PoweringOff" | "Paused" | "Unknown";

export const BOOT_TARGETS = ["pxe", "hdd", "uefiHttp"] as const;
export type BootTarget = (typeof BOOT_TARGETS)[number];

/** Three-way status used by lockdown and serial console: the lifecycle waits for exactly `enabled`. */
export type TriState = "enabled" | "partial" | "disabled";

export interface TriStateStatus {
  state: TriState;
  /** Human-readable: which settings are on and which are off. */
  message: string;
}

/** A reference to BMC-side asynchronous work the caller may poll (a Redfish task or a vendor job). */
export interface JobRef {
  kind: "task" | "job";
  id: string;
  /** Path to poll (task monitor or job resource). */
  path: string;
}

export type JobState = "scheduled" | "running" | "completed" | "completedWithErrors" | "failed" | "unknown";

export interface JobStatus {
  id: string;
  state: JobState;
  percentComplete?: number;
  message?: string;
}

export type BiosAttributes = Record<string, BiosValue>;

export interface BootOptionInfo {
  id: string;
  reference: string;
  displayName: string;
  enabled: boolean | undefined;
  uefiDevicePath: string | undefined;
  /** MAC parsed from the UEFI device path (`MAC(B83FD2909582,0x1)`), colon-separated upper case. */
  mac: string | undefined;
}

export interface BootOrderInfo {
  order: string[];
  options: BootOptionInfo[];
}

export interface MachineSetupOptions {
  /** MAC of the interface the host must boot from (the primary DPU's host-facing port). */
  bootInterfaceMac?: string;
  /** Extra BIOS attributes from the operator's profile for this model (performance, power efficiency, …). */
  biosProfile?: BiosAttributes;
}

export interface MachineSetupResult {
  /** BMC job that applies the settings, when the vendor uses jobs (Dell). */
  job?: JobRef;
  /** Whether a reboot is needed for the settings to take effect. */
  rebootRequired: boolean;
}

export interface SettingDiff {
  key: string;
  expected: string;
  actual: string;
}

export interface MachineSetupStatus {
  done: boolean;
  diffs: SettingDiff[];
}

export interface AccountInfo {
  id: string;
  userName: string;
  roleId: string;
  enabled: boolean | undefined;
  locked: boolean | undefined;
}

export type AccountRole = "Administrator" | "Operator" | "ReadOnly" | "NoAccess";

export interface PasswordPolicy {
  lockoutThreshold?: number;
  lockoutDurationSeconds?: number;
  lockoutCounterResetAfterSeconds?: number;
  minPasswordLength?: number;
  maxPasswordLength?: number;
}

export interface FirmwareComponent {
  id: string;
  name: string;
  version: string;
  updateable: boolean | undefined;
  releaseDate?: string;
}

export type FirmwareUpdateRequest =
  | { method: "simpleUpdate"; imageUri: string; transferProtocol?: string; targets?: string[] }
  | { method: "httpPush"; filename: string; data: Uint8Array }
  | {
      method: "multipart";
      filename: string;
      data: Uint8Array;
      targets?: string[];
      applyTime?: "Immediate" | "OnReset";
    };

export type SensorKind = "temperature" | "fan" | "power" | "voltage" | "current" | "other";

export interface SensorReading {
  id: string;
  name: string;
  kind: SensorKind;
  reading: number | null;
  units: string;
  /** Chassis (or other resource) the reading belongs to. */
  source: string;
  health: string | undefined;
  state: string | undefined;
  thresholds: {
    lowerCritical?: number;
    upperCritical?: number;
    lowerCaution?: number;
    upperCaution?: number;
    /** Beyond these the hardware may be damaged; the monitor treats them like critical thresholds. */
    lowerFatal?: number;
    upperFatal?: number;
    rangeMin?: number;
    rangeMax?: number;
  };
}

export interface PowerMetrics {
  consumedWatts: number | null;
  supplies: Array<{
    id: string;
    name: string;
    inputWatts: number | null;
    outputWatts: number | null;
    capacityWatts: number | null;
    health: string | undefined;
  }>;
}

export interface LogEntryInfo {
  id: string;
  created: string | undefined;
  severity: string | undefined;
  message: string;
  messageId: string | undefined;
  source: string;
}

export interface EventLogQuery {
  /** Return only entries after this entry id (incremental collection). */
  sinceId?: string;
  /** Stop after this many entries (newest kept). */
  limit?: number;
}

export interface SecureBootStatus {
  enabled: boolean | null;
  currentBoot: string | null;
  mode: string | null;
}

export interface EthernetInterfaceInfo {
  id: string;
  mac: string | undefined;
  uefiDevicePath: string | undefined;
  enabled: boolean | undefined;
  linkStatus: string | undefined;
  ipv4Addresses: string[];
  /**
   * `Virtual` for a VLAN (or bond) interface, which shares its parent's MAC: it is not another NIC, so MAC
   * uniqueness and pairing count `Physical` (and unstated) interfaces only. Absent when the BMC does not tell.
   */
  interfaceType?: "Physical" | "Virtual";
}

export interface PcieDeviceInfo {
  id: string;
  name: string | undefined;
  manufacturer: string | undefined;
  model: string | undefined;
  partNumber: string | undefined;
  serialNumber: string | undefined;
  firmwareVersion: string | undefined;
  deviceType: string | undefined;
  state: string | undefined;
  health: string | undefined;
}

export interface NetworkAdapterInfo {
  id: string;
  chassisId: string;
  manufacturer: string | undefined;
  model: string | undefined;
  partNumber: string | undefined;
  serialNumber: string | undefined;
  firmwareVersion: string | undefined;
}

export interface DriveInfo {
  id: string;
  storageId: string;
  name: string | undefined;
  model: string | undefined;
  serialNumber: string | undefined;
  capacityBytes: number | undefined;
  mediaType: string | undefined;
  protocol: string | undefined;
  health: string | undefined;
}

export type NicMode = "dpu" | "nic";
