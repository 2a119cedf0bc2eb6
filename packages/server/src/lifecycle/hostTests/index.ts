export { HostTestsNotLoadedError } from "./errors.js";
export {
  HOST_TEST_RUNS,
  type HostTestRunStatus,
  type HostTestRuns,
  type PendingHostTestRun,
} from "./hostTestRuns.js";
