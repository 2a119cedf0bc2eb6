/**
 * Scenarios: what a fleet holds (hosts per model, DPUs, credentials, anomalies), from a file or from code.
 */
export {
  ALL_HOST_MODELS,
  DEFAULT_HOST_MODELS,
  type GenerateScenarioOptions,
  generateScenario,
  type HostModel,
} from "./generateScenario.js";
export { checkScenario, loadScenarioFile, parseScenario } from "./loadScenario.js";
export { FLEET_SCENARIO_SCHEMA } from "./schema.js";
export {
  ANOMALY_KINDS,
  type AnomalyKind,
  type AnomalySpec,
  type DpuSpec,
  type FleetScenario,
  type HostGroup,
  type MockupSource,
  type VendorCredentials,
} from "./types.js";
