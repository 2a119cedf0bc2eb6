/** `@racksmith/fabric-ufm/testing`: the UFM simulator, for tests and the fleet simulator. */
export {
  type RecordedUfmRequest,
  type SimulatedPort,
  type SimulatedSecurity,
  UfmSimulator,
  type UfmSimulatorAuth,
  type UfmSimulatorFaults,
  type UfmSimulatorOptions,
  type UfmSimulatorTls,
} from "../simulator/index.js";
