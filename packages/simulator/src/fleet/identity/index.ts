/**
 * The identity of a virtual BMC: the serials, MACs and UUIDs found in a mockup, new values for them, and the
 * rewrite that serves them consistently in every document.
 */
export { findBluefieldCards, isBluefield } from "./bluefieldCards.js";
export { discoverIdentity } from "./discoverIdentity.js";
export { IdentityAllocator } from "./identityAllocator.js";
export {
  canonicalMac,
  displayMac,
  MAC_SPELLINGS,
  type MacSpelling,
  macOffset,
  macOfGuid,
  macPlus,
  spellMac,
} from "./macAddress.js";
export { IdentityRewrite, IdentityRewriter } from "./rewriter.js";
export type {
  BluefieldCard,
  DpuRoles,
  IdentityToken,
  IdentityTokenKind,
  MockupIdentity,
  SpelledToken,
  TokenSpelling,
} from "./types.js";
