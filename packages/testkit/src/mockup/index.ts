/**
 * The stateful Redfish mockup: a shared, lazily loaded {@link MockupTree}, a per-BMC {@link MockupService} (request
 * semantics over a {@link MockupState}, extensible with behaviors) and the {@link MockupServer} HTTP(S) front.
 */

export {
  DEFAULT_LOCKOUT_DURATION_MS,
  type MockupLockoutPolicy,
  type MockupLockoutRecord,
} from "./accountLockout.js";
export type {
  MockupActionContext,
  MockupBehavior,
  MockupHook,
  MockupHookContext,
  MockupHookResult,
  MockupRequestInfo,
  MockupResetContext,
  MockupWriteContext,
} from "./behaviors.js";
export type { CreatedMember } from "./collections.js";
export { InvalidFaultRuleError, MockupRootNotFoundError, MockupServerStartError } from "./errors.js";
export {
  type FaultDecision,
  FaultInjector,
  type FaultRule,
  loadFaults,
  parseFaultRules,
  validateFaultRule,
} from "./faults.js";
export { compileGlob, matchesGlob } from "./globPattern.js";
export {
  deepMerge,
  isJsonObject,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
  linkOf,
  objectField,
  stringField,
} from "./json.js";
export type { MockupDocument, MockupJsonDocument, MockupTextDocument } from "./mockupDocument.js";
export { detectMockupLayout, type MockupLayout, type MockupLayoutKind } from "./mockupLayout.js";
export { MockupServer, type MockupServerOptions } from "./mockupServer.js";
export { MockupService, type MockupServiceOptions } from "./mockupService.js";
export { type MockupActionRecord, type MockupSession, MockupState } from "./mockupState.js";
export { MockupTree } from "./mockupTree.js";
export type { MockupBootOverride, MockupPowerChange, MockupPowerListener } from "./powerEvents.js";
export { BASE_REGISTRY, type BaseMessageName, baseMessage, redfishError } from "./redfishMessages.js";
export { jsonResponse, noContent, textResponse } from "./responses.js";
export { type MockupServerStats, RequestStatsCounter } from "./serverStats.js";
export type { MockupServiceSettings } from "./serviceCore.js";
export {
  REDFISH_RULE_NAMES,
  REDFISH_RULES,
  type RedfishLeniencies,
  type RedfishRule,
  StrictRules,
} from "./strict/index.js";
export type { CreatedTask, MockupTaskOptions } from "./tasks.js";
export { createSelfSignedCertificate, type TlsCertificate } from "./tlsCertificate.js";
export {
  DEFAULT_MOCKUP_CREDENTIALS,
  MOCKUP_AUTH_MODES,
  type MockupAuthMode,
  type MockupCredentials,
  type MockupRequest,
  type MockupResponse,
} from "./types.js";
