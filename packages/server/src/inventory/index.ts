export { INVENTORY_SERVICE, inventoryGrpcService, inventoryRestRoutes } from "./api/index.js";
export {
  DEFAULT_CREDENTIALS_DIRECTORY,
  DEFAULT_CREDENTIALS_KEY_FILE,
  DEFAULT_UNDERLAY_POOL,
  type FactoryDefaultConfig,
  type InventoryConfig,
  inventoryConfigProblems,
  type ResolvedInventoryConfig,
  resolveInventoryConfig,
} from "./configSchema.js";
export type * from "./contracts.js";
export { BMC_ENDPOINTS_CHANGED_TOPIC } from "./contracts.js";
export * from "./credentials/index.js";
export { DhcpLeaseStore } from "./dhcp/index.js";
export {
  DhcpPoolExhaustedError,
  ExpectedMachineExistsError,
  ExpectedMachineNotFoundError,
  ExpectedMachinesFileError,
  ExpectedMachinesRejectedError,
  InvalidExpectedMachineError,
} from "./errors.js";
export {
  checkExpectedMachines,
  DPU_MODES,
  EXPECTED_MACHINE_CSV_COLUMNS,
  ExpectedMachineStore,
  type ExpectedMachinesFile,
  parseBmcAddress,
  parseExpectedMachinesCsv,
  parseExpectedMachinesFile,
  parseExpectedMachinesJson,
  type ValidExpectedMachine,
  validateExpectedMachine,
} from "./expectedMachines/index.js";
export { inventoryFeature } from "./feature.js";
export {
  type InventoryCredentialStore,
  InventoryService,
  type OpenInventoryOptions,
  openInventory,
} from "./openInventory.js";
export type { DhcpLeasesTable, ExpectedMachinesTable } from "./tables.js";
