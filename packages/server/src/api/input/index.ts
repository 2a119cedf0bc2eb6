export { excerpt, quoted } from "./excerpt.js";
export { childPath, fieldPath } from "./fieldPath.js";
export {
  DEFAULT_MAX_ARRAY_ITEMS,
  DEFAULT_MAX_STRING_LENGTH,
  MAX_ADDRESS_LENGTH,
  MAX_ID_LENGTH,
  MAX_MAC_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PASSWORD_LENGTH,
} from "./limits.js";
export { assertStorableText, findBadText, MAX_NESTING_DEPTH, textProblem, wellFormed } from "./text.js";
