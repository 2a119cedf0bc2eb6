import { InvalidArgumentError } from "../../errors/index.js";

/** An InfiniBand port GUID, normalised to 16 lowercase hex digits without prefix or separators. */
export type IbGuid = string;

const NORMALISED = /^[0-9a-f]{16}$/;

export function isIbGuid(value: unknown): value is IbGuid {
  return typeof value === "string" && NORMALISED.test(value);
}

/**
 * Normalises a GUID as hosts, UFM and operators write it (`0x248A0703009C7E82`, `24:8a:07:…`) so GUIDs from
 * different sources compare equal. Throws naming the bad value.
 */
export function normalizeIbGuid(value: string): IbGuid {
  let text = value.trim().toLowerCase();
  if (text.startsWith("0x")) text = text.slice(2);
  text = text.replace(/[:-]/g, "");
  if (!NORMALISED.test(text)) {
    throw new InvalidArgumentError(`GUID ${JSON.stringify(value)} is not valid: expected 16 hex digits`);
  }
  return text;
}
