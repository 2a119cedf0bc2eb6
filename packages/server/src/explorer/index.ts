export { MACHINES_SERVICE, SITE_EXPLORER_SERVICE } from "./api/index.js";
export { BLUEFIELD_PART_NUMBER_PREFIXES, isBluefieldPartNumber } from "./bluefield.js";
export { type BmcConnector, createBmcConnector } from "./bmcConnector.js";
export {
  DEFAULT_SITE_EXPLORER_CONFIG,
  type ResolvedSiteExplorerConfig,
  resolveSiteExplorerConfig,
  SITE_EXPLORER_CONFIG_SCHEMA,
  type SiteExplorerConfig,
  siteExplorerConfigProblems,
} from "./configSchema.js";
export { credentialCandidates } from "./credentialCandidates.js";
export { EndpointNotFoundError, MachineNotFoundError } from "./errors.js";
export {
  EXPLORATION_FAILURE_CODES,
  type ExplorationFailure,
  type ExplorationFailureCode,
} from "./explorationFailure.js";
export { SITE_EXPLORER_WORK_LOCK } from "./explorationLoop.js";
export {
  createSiteExplorerFeature,
  readBmcCaFile,
  type SiteExplorerFeatureOptions,
  siteExplorerFeature,
} from "./feature.js";
export type { EndpointFinding } from "./findings.js";
export {
  decideIngestion,
  type IngestionDecision,
  type IngestionInput,
  type IngestionStatus,
} from "./ingestion.js";
export { type MachineKind, machineIdFor } from "./machineIds.js";
export { MANAGED_HOST_OBJECT_TYPE, type MachineRow } from "./machineStore.js";
export {
  MANAGED_HOST_INITIAL_STATE,
  managedHostMachine,
} from "./managedHostMachine.js";
export {
  type DpuEndpoint,
  type HostEndpoint,
  hostBluefieldSerials,
  indexDpusBySerial,
  type PairedDpu,
  type PairingOptions,
  type PairingResult,
  pairHost,
} from "./pairing.js";
export { compareUefiDevicePaths, parseUefiDevicePath } from "./uefiDevicePath.js";
export type {
  EndpointDetail,
  EndpointErrorView,
  EndpointSummary,
  ExploreNowResult,
  MachineDetail,
  MachineLifecycleView,
  MachineView,
  ManagedHostDpu,
  ManagedHostView,
} from "./views.js";
