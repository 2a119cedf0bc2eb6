// The simulated site moved to `@racksmith/simulator`; these re-exports keep the CLI's 0.1 imports working.
// Import them from `@racksmith/simulator`.
export {
  countByState,
  fastTimings,
  listHostStates,
  registerFleet,
  SIMULATED_SITE_PASSWORD,
  type SimulatedSite,
  type SimulatedSiteOptions,
  startSimulatedSite,
  transitionCount,
  writeSimulatedSite,
} from "@racksmith/simulator";
export { type CliRun, memoryIo, runCliInMemory, runCliJson } from "./inMemory.js";
export { type CliIo, processIo } from "./io.js";
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runCli } from "./main.js";
