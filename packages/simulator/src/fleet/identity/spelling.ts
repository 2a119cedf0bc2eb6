import { MAC_SPELLINGS, type MacSpelling, spellMac } from "./macAddress.js";
import type { IdentityToken, TokenSpelling, UuidSpelling } from "./types.js";

const UUID_SPELLINGS: readonly UuidSpelling[] = ["uuidLower", "uuidUpper"];
const EXACT: readonly TokenSpelling[] = ["exact"];

/**
 * Every way a token of this kind may be written: serials as they are, MACs ten ways, UUIDs in either case.
 */
export function spellingsOf(kind: IdentityToken["kind"]): readonly TokenSpelling[] {
  if (kind === "mac") return MAC_SPELLINGS;
  if (kind === "uuid") return UUID_SPELLINGS;
  return EXACT;
}

/** A canonical token value written in one spelling. */
export function spellToken(kind: IdentityToken["kind"], value: string, spelling: TokenSpelling): string {
  if (kind === "mac") return spellMac(value, spelling as MacSpelling);
  if (kind === "uuid") return spelling === "uuidUpper" ? value.toUpperCase() : value;
  return value;
}
