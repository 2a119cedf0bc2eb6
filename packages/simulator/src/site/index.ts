/**
 * A simulated site: `racksmith serve` over a fleet of virtual BMCs with its DPU and host agents (and
 * optionally UFM and NMX-M simulators) in one process, the site folder it runs from, the fleet's registration
 * with the service, and progress figures over the hosts' lifecycle states.
 */
export { SimulatedSiteMismatchError } from "./errors.js";
export type { SimulatedFabricManager } from "./fabricManager.js";
export {
  fleetNvLinkDomains,
  type SimulatedNmxm,
  type SimulatedNmxmOptions,
  startSimulatedNmxm,
} from "./nmxm.js";
export { countByState, progressLine, stuckHosts, transitionCount } from "./progress.js";
export { type RegisterFleetOptions, type Registration, registerFleet } from "./register.js";
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
export { SITE_MANIFEST_FILE } from "./siteManifest.js";
export { type SimulatedUfm, type SimulatedUfmOptions, startSimulatedUfm } from "./ufm.js";
