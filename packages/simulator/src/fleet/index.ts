/**
 * A fleet of virtual BMCs: thousands of stateful mockup BMCs in one process, each with its own identity
 * (serials, MACs, UUIDs rewritten consistently, a host's BlueField matching its DPU), planned from a scenario
 * together with the expected machines and DHCP discoveries that match them.
 */

export { MockupCatalog, type MockupCatalogOptions, type MockupTemplate } from "./catalog/index.js";
export {
  FleetBmcNotFoundError,
  FleetCapacityError,
  FleetMockupError,
  FleetScenarioError,
  FleetStartError,
  type ScenarioProblem,
} from "./errors.js";
export {
  canonicalMac,
  discoverIdentity,
  displayMac,
  IdentityAllocator,
  IdentityRewrite,
  IdentityRewriter,
  type MockupIdentity,
} from "./identity/index.js";
export {
  DEFAULT_VENDOR_CREDENTIALS,
  expectedMachinesCsv,
  type FleetAnomaly,
  type FleetPlan,
  type PlanFleetOptions,
  planFleet,
  type VirtualBmcKind,
  type VirtualBmcPlan,
} from "./plan/index.js";
export {
  ALL_HOST_MODELS,
  ANOMALY_KINDS,
  type AnomalyKind,
  type AnomalySpec,
  checkScenario,
  DEFAULT_HOST_MODELS,
  type DpuSpec,
  FLEET_SCENARIO_SCHEMA,
  type FleetScenario,
  type GenerateScenarioOptions,
  generateScenario,
  type HostGroup,
  type HostModel,
  loadScenarioFile,
  type MockupSource,
  parseScenario,
  type VendorCredentials,
} from "./scenario/index.js";
export { VirtualBmc, type VirtualBmcServiceOptions, type VirtualBmcSummary } from "./server/index.js";
export { Fleet, type FleetStats, type StartFleetOptions, startFleet } from "./startFleet.js";
