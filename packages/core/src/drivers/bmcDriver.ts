import type { Logger } from "../logging/index.js";
import type { RedfishClient, ServiceProbe, ServiceRoot } from "../redfish/index.js";
import type { ExplorationReport } from "./explorationReport.js";
import type { HardwareIdentity } from "./hardwareIdentity.js";
import type {
  AccountInfo,
  AccountRole,
  BiosAttributes,
  BootOrderInfo,
  BootTarget,
  DriveInfo,
  EthernetInterfaceInfo,
  EventLogQuery,
  FirmwareComponent,
  FirmwareUpdateRequest,
  JobRef,
  JobStatus,
  LogEntryInfo,
  MachineSetupOptions,
  MachineSetupResult,
  MachineSetupStatus,
  NetworkAdapterInfo,
  NicMode,
  PasswordPolicy,
  PcieDeviceInfo,
  PowerAction,
  PowerMetrics,
  PowerState,
  SecureBootStatus,
  SensorReading,
  TriStateStatus,
} from "./types.js";

/**
 * Every operation Racksmith performs on a BMC. `RedfishStandard` implements all of them by the DMTF standard
 * alone; a vendor driver extends it and overrides what its hardware does differently. An operation the
 * hardware cannot do throws `NotSupportedError` (code `not_supported`) — it never silently succeeds.
 */
export interface BmcDriver
  extends PowerOperations,
    BootOperations,
    BiosOperations,
    LockdownOperations,
    SerialConsoleOperations,
    AccountOperations,
    FirmwareOperations,
    TelemetryOperations,
    EventLogOperations,
    SecurityOperations,
    InventoryOperations,
    DpuOperations {
  /** The driver's registered name (`redfish-standard`, `dell`, …). */
  readonly name: string;
  readonly client: RedfishClient;
  /**
   * Id of the computer system this driver manages: the pinned one, else the only one, else the host system of a
   * multi-system BMC (not a GPU baseboard; `SystemType` Physical; with boot options — `primarySystem`).
   */
  systemId(): Promise<string>;
  /** Id of the BMC's own manager resource. */
  managerId(): Promise<string>;
  /** The report the site explorer stores for this BMC. */
  explore(): Promise<ExplorationReport>;
}

export interface PowerOperations {
  powerState(): Promise<PowerState>;
  /** Idempotent: `On` when already on (or off when already off) does nothing. */
  power(action: PowerAction): Promise<void>;
  bmcReset(): Promise<void>;
}

export interface BootOperations {
  bootOptions(): Promise<BootOrderInfo>;
  /** Boot the target on the next boot only. */
  bootOnce(target: BootTarget): Promise<void>;
  /** Make the target the first entry of the persistent boot order. */
  bootFirst(target: BootTarget): Promise<void>;
  /** Put the HTTP/PXE boot option of this MAC (the primary DPU's host port) first; a job when the vendor uses one. */
  setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined>;
  isBootOrderDpuFirst(mac: string): Promise<boolean>;
}

export interface BiosOperations {
  bios(): Promise<BiosAttributes>;
  /** Stage BIOS attributes for the next reset; a job when the vendor needs one to apply them. */
  setBios(attributes: BiosAttributes): Promise<JobRef | undefined>;
  /** Staged attributes whose value differs from the current one. */
  pendingBios(): Promise<BiosAttributes>;
  clearPendingBios(): Promise<void>;
  resetBios(): Promise<void>;
  /** Apply everything a host needs before it can be managed (BIOS, serial, boot, TPM…). */
  machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult>;
  /** The settings `machineSetup` applies that the BMC does not show yet. */
  machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus>;
}

export interface LockdownOperations {
  setLockdown(enabled: boolean): Promise<void>;
  lockdownStatus(): Promise<TriStateStatus>;
}

export interface SerialConsoleOperations {
  setupSerialConsole(): Promise<void>;
  serialConsoleStatus(): Promise<TriStateStatus>;
}

export interface AccountOperations {
  accounts(): Promise<AccountInfo[]>;
  createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo>;
  deleteAccount(userName: string): Promise<void>;
  changePassword(userName: string, newPassword: string): Promise<void>;
  passwordPolicy(): Promise<PasswordPolicy>;
  setPasswordPolicy(policy: PasswordPolicy): Promise<void>;
  changeUefiPassword(currentPassword: string, newPassword: string): Promise<JobRef | undefined>;
}

export interface FirmwareOperations {
  firmwareInventory(): Promise<FirmwareComponent[]>;
  updateFirmware(request: FirmwareUpdateRequest): Promise<JobRef>;
  jobStatus(job: JobRef): Promise<JobStatus>;
}

export interface TelemetryOperations {
  thermal(): Promise<SensorReading[]>;
  powerMetrics(): Promise<PowerMetrics>;
  sensors(): Promise<SensorReading[]>;
}

export interface EventLogOperations {
  systemEventLog(query?: EventLogQuery): Promise<LogEntryInfo[]>;
  bmcEventLog(query?: EventLogQuery): Promise<LogEntryInfo[]>;
}

export interface SecurityOperations {
  secureBootStatus(): Promise<SecureBootStatus>;
  setSecureBoot(enabled: boolean): Promise<void>;
  clearTpm(): Promise<void>;
}

export interface InventoryOperations {
  systemEthernetInterfaces(): Promise<EthernetInterfaceInfo[]>;
  managerEthernetInterfaces(): Promise<EthernetInterfaceInfo[]>;
  pcieDevices(): Promise<PcieDeviceInfo[]>;
  networkAdapters(): Promise<NetworkAdapterInfo[]>;
  drives(): Promise<DriveInfo[]>;
}

/** BlueField specifics; other drivers throw `not_supported`. */
export interface DpuOperations {
  nicMode(): Promise<NicMode>;
  setNicMode(mode: NicMode): Promise<void>;
  enableRshim(): Promise<void>;
  /** The DPU's host-facing base MAC (pf0). */
  baseMac(): Promise<string>;
}

/** Operation groups a driver can declare; the conformance suite exercises exactly the declared ones. */
export const BMC_CAPABILITIES = [
  "power",
  "acPowerCycle",
  "bmcReset",
  "bootOnce",
  "bootFirst",
  "bootOrderDpuFirst",
  "bios",
  "biosPending",
  "machineSetup",
  "lockdown",
  "serialConsole",
  "accounts",
  "passwordPolicy",
  "uefiPassword",
  "firmwareInventory",
  "firmwareUpdate",
  "thermal",
  "powerMetrics",
  "sensors",
  "systemEventLog",
  "bmcEventLog",
  "secureBoot",
  "tpmClear",
  "inventory",
  "drives",
  "dpu",
] as const;
export type BmcCapability = (typeof BMC_CAPABILITIES)[number];

/** Every capability but the named ones, for drivers that implement nearly the whole contract. */
export function capabilitiesExcept(...excluded: readonly BmcCapability[]): BmcCapability[] {
  return BMC_CAPABILITIES.filter((capability) => !excluded.includes(capability));
}

/** What a driver gets when it is created for one BMC. */
export interface DriverContext {
  logger: Logger;
  /** Detection data, when the caller already probed the service (saves requests). */
  probe?: ServiceProbe;
  /** Operator settings for this driver from the config file (BIOS profiles per model, …). */
  settings?: Readonly<Record<string, unknown>>;
  /** Explicit system id (multi-system BMCs); default: the host system `RedfishStandard.systemId()` picks. */
  systemId?: string;
}

/**
 * What a plugin registers: a driver's identity, its declared capabilities, how it recognises its hardware,
 * and how it is created for one BMC.
 */
export interface BmcDriverDefinition {
  /** Short, unique, kebab-case (`dell`, `nvidia-dpu`); what operators pin and reports record. */
  name: string;
  /** Human-readable vendor (`Dell`, `NVIDIA`). */
  vendor: string;
  description?: string;
  /** Models this driver was written and tested for (informational; detection decides). */
  models?: readonly string[];
  capabilities: readonly BmcCapability[];
  /**
   * JSON Schema of this driver's section of the config (`drivers.<name>`), e.g. BIOS profiles per model.
   * Validated when the config is loaded; the section reaches the driver as `DriverContext.settings`.
   */
  settingsSchema?: Readonly<Record<string, unknown>>;
  /**
   * How sure the driver is that this BMC is its hardware: 0 = not mine, 100 = certain. `RedfishStandard`
   * scores 1 for any Redfish service, so any vendor match wins over it.
   */
  detect(serviceRoot: ServiceRoot, probe: ServiceProbe): number;
  /**
   * Optional second step, for hardware the service root does not name (no `Vendor`, an empty `Oem`): the
   * first system's and manager's `Manufacturer`/`Model`, read once with the credentials and shared by every
   * candidate. A number replaces this driver's `detect` score (0–100); undefined keeps it. Never called when
   * a driver is pinned, nor for choosing a vendor's factory-default login (that happens before credentials).
   */
  refine?(hardware: HardwareIdentity, probe: ServiceProbe): number | undefined;
  create(client: RedfishClient, context: DriverContext): BmcDriver;
}
