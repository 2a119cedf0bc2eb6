import { isJsonObject, type JsonValue } from "@racksmith/testkit";
import { canonicalMac, macOfGuid } from "./macAddress.js";

/** Calls `visit` for every string in a JSON value, with the key it sits under and its pointer. */
export function forEachString(
  value: JsonValue,
  visit: (text: string, key: string, pointer: readonly string[]) => void,
  pointer: readonly string[] = [],
): void {
  if (typeof value === "string") {
    visit(value, pointer.at(-1) ?? "", pointer);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      forEachString(item, visit, [...pointer, String(index)]);
    });
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) forEachString(child, visit, [...pointer, key]);
  }
}

const SERIAL_KEY = /(SerialNumber|ServiceTag)$/i;
const PLACEHOLDER_SERIAL =
  /^(n\/?a|none|null|unknown|not (specified|available|applicable)|to be filled.*|default string|0+)$/i;

/**
 * A serial number under a serial key (`SerialNumber`, Dell's `ServiceTag`), trimmed; placeholders ignored.
 */
export function serialCandidate(text: string, key: string): string | undefined {
  if (!SERIAL_KEY.test(key)) return undefined;
  const serial = text.trim();
  return serial.length >= 4 && !PLACEHOLDER_SERIAL.test(serial) ? serial : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The UUID of a `UUID` key (systems, managers, the service root), lower-cased. */
export function uuidCandidate(text: string, key: string): string | undefined {
  return /uuid/i.test(key) && UUID.test(text.trim()) ? text.trim().toLowerCase() : undefined;
}

// Six hex pairs with one separator, not part of a longer run (an NVMe EUI-64 has eight).
const SEPARATED_MAC =
  /(?<![0-9A-Fa-f][:-]?)[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![:-]?[0-9A-Fa-f])/g;
// `MAC(B83FD2AA1050,0x1)` in UEFI device paths.
const DEVICE_PATH_MAC = /MAC\(([0-9A-Fa-f]{12})[,)]/gi;
// `(MAC:B83FD2AA0001)` and Supermicro's `… - 7CC255793F8E` in boot option names.
const NAMED_MAC = /(?:MAC[:=]\s*|\s-\s)([0-9A-Fa-f]{12})(?![0-9A-Fa-f])/gi;

/**
 * Every MAC written in a string (canonical): separated notations anywhere, bare ones only where a BMC writes
 * them (UEFI device paths, boot option names, keys naming a MAC), and BlueField base GUIDs.
 */
export function macCandidates(text: string, key: string): string[] {
  const found: string[] = [];
  const add = (raw: string | undefined): void => {
    const mac = raw === undefined ? undefined : canonicalMac(raw);
    if (mac) found.push(mac);
  };
  for (const match of text.matchAll(SEPARATED_MAC)) add(match[0]);
  for (const match of text.matchAll(DEVICE_PATH_MAC)) add(match[1]);
  for (const match of text.matchAll(NAMED_MAC)) add(match[1]);
  const whole = text.trim();
  if (/mac/i.test(key) && /^[0-9A-Fa-f]{12}$/.test(whole)) add(whole);
  // The colon form of a base GUID is distinctive anywhere (`DPU_SYS_IMAGE` version); the bare form only
  // under a GUID key.
  if (
    /^[0-9A-Fa-f]{4}(:[0-9A-Fa-f]{4}){3}$/.test(whole) ||
    (/guid/i.test(key) && /^[0-9A-Fa-f]{16}$/.test(whole))
  ) {
    const mac = macOfGuid(whole);
    if (mac) found.push(mac);
  }
  return found;
}
