export { type CliRun, memoryIo, runCliInMemory, runCliJson } from "./inMemory.js";
export { type CliIo, processIo } from "./io.js";
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runCli } from "./main.js";
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
} from "./simulation/index.js";
