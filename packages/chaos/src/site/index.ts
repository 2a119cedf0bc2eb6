export {
  BMC_FAULT_KINDS,
  type BmcFaultKind,
  injectRandomBmcFaults,
  type RandomBmcFaults,
} from "./bmcFaults.js";
export { ChaosSite, type ChaosSiteOptions } from "./chaosSite.js";
export { type HistoryRules, historyProblems } from "./invariants.js";
export { type OverlapReport, OverlapWatch, overlapFailures } from "./overlap.js";
export { ChaosDatabase, type HeldClaim } from "./postgres.js";
export { runSeed, seededRandom } from "./random.js";
export {
  observedProcesses,
  runOnSite,
  type ScenarioStart,
  type SiteRun,
  scenarioStart,
  secondsSummary,
  skippedWithoutPostgres,
} from "./run.js";
export { type Secret, type SecretLeak, scanLogsForSecrets, siteSecrets } from "./secrets.js";
export { type ServeLine, ServeProcess } from "./serveProcess.js";
export { pollUntil, randomDelay, sleep, waitFor } from "./waitFor.js";
