/**
 * Strict mode: the Redfish specification's rules (DSP0266) the mockup enforces unless a service option or a
 * vendor behavior relaxes one of them.
 */
export { allowedMethods, methodNotAllowedHere, withResourceHeaders } from "./allowedMethods.js";
export { mergePatch } from "./patchArrays.js";
export { type PatchPlan, patchPartlyApplied, patchRefused, planPatch } from "./patchProperties.js";
export { checkPrivileges } from "./privileges.js";
export { checkQueryParameters } from "./queryParameters.js";
export { checkOdataVersion, unknownMethod } from "./requestChecks.js";
export {
  checkRuleNames,
  REDFISH_RULE_NAMES,
  REDFISH_RULES,
  type RedfishLeniencies,
  type RedfishRule,
  StrictRules,
} from "./rules.js";
export { checkSubscription } from "./subscriptions.js";
