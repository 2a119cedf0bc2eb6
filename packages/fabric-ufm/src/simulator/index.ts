export type { SimulatedPort, SimulatedSecurity } from "./state.js";
export {
  type RecordedUfmRequest,
  UfmSimulator,
  type UfmSimulatorAuth,
  type UfmSimulatorFaults,
  type UfmSimulatorOptions,
  type UfmSimulatorTls,
} from "./ufmSimulator.js";
