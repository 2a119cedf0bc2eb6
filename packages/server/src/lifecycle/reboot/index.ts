export {
  decideReboot,
  type RebootDecision,
  type RebootInput,
  type RebootKind,
  type RebootPolicy,
  retryIntervalMs,
} from "./decideReboot.js";
export {
  CALM_SAMPLES_TO_RECOVER,
  type LoadSample,
  type LoadState,
  nextLoadState,
  OverloadHistory,
  type OverloadThresholds,
} from "./overloadHistory.js";
export { type RebootCaps, rebootCapHolds } from "./rebootCaps.js";
export { OPEN_REBOOT_GATE, type RebootGate, RebootGovernor, type RebootStats } from "./rebootGovernor.js";
export { RebootHeldError } from "./rebootHeldError.js";
export { ServiceLoadMonitor, type ServiceLoadMonitorOptions } from "./serviceLoadMonitor.js";
