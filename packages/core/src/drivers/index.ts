export {
  BIOS_PROFILE_SETTINGS_PROPERTIES,
  type BiosProfileSettings,
  resolveBiosProfile,
} from "./biosProfiles.js";
export {
  type AccountOperations,
  type BiosOperations,
  BMC_CAPABILITIES,
  type BmcCapability,
  type BmcDriver,
  type BmcDriverDefinition,
  type BootOperations,
  capabilitiesExcept,
  type DpuOperations,
  type DriverContext,
  type EventLogOperations,
  type FirmwareOperations,
  type InventoryOperations,
  type LockdownOperations,
  type PowerOperations,
  type SecurityOperations,
  type SerialConsoleOperations,
  type TelemetryOperations,
} from "./bmcDriver.js";
export { defineBmcDriver } from "./defineBmcDriver.js";
export type {
  DriverCandidate,
  ExplorationReport,
  ExploredChassis,
  ExploredManager,
  ExploredSystem,
} from "./explorationReport.js";
export { type ConnectedBmc, type ConnectOptions, connectBmc, exploreBmc } from "./exploreBmc.js";
export { type DriverSelection, selectDriver } from "./selection.js";
export * from "./types.js";
