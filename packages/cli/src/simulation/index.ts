export {
  fleetNvLinkDomains,
  type SimulatedNmxm,
  type SimulatedNmxmOptions,
  startSimulatedNmxm,
} from "./nmxm.js";
export { countByState, progressLine, stuckHosts, transitionCount } from "./progress.js";
export { type Registration, registerFleet } from "./register.js";
export {
  listHostStates,
  type SimulatedSite,
  type SimulatedSiteOptions,
  startSimulatedSite,
} from "./simulatedSite.js";
export {
  fastTimings,
  SIMULATED_SITE_PASSWORD,
  type SimulatedSiteSections,
  writeSimulatedSite,
} from "./siteFiles.js";
export { type SimulatedUfm, type SimulatedUfmOptions, startSimulatedUfm } from "./ufm.js";
