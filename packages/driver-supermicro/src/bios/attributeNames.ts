import type { BiosAttributes } from "@racksmith/core";

// Supermicro firmware appends a 4-hex-digit instance suffix to every BIOS attribute: `QuietBoot#002D` on
// older firmware, `QuietBoot_002D` on newer, where punctuation in the name also became `_`
// (`IntelVTforDirectedI/O(VT-d)#1E32` → `IntelVTforDirectedI_O_VT_d__1E32`).
const INSTANCE_SUFFIX = /[#_][0-9A-Fa-f]{4}$/;

/**
 * The name an attribute is known by across firmware: suffix removed, letters and digits only, lower case.
 * `Re_tryBoot_0032`, `Re-tryBoot#0032` and `Re-tryBoot` all become `retryboot`.
 */
export function canonicalAttributeName(name: string): string {
  return name
    .replace(INSTANCE_SUFFIX, "")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();
}

/** Every key of `current` that is the attribute `name` (several instances share one name: `TXTSupport`). */
export function matchingAttributeKeys(name: string, current: BiosAttributes): string[] {
  if (name in current) return [name];
  const wanted = canonicalAttributeName(name);
  return Object.keys(current).filter((key) => canonicalAttributeName(key) === wanted);
}

export interface ResolvedAttributes {
  /** Values keyed by this BMC's real attribute keys. */
  attributes: BiosAttributes;
  /** Requested names no key matches. */
  unknown: string[];
}

/**
 * Maps requested attribute names to this BMC's keys. Names given by their exact key win over names matched by
 * their canonical form, so an operator can still address one instance of a repeated attribute.
 */
export function resolveAttributeKeys(requested: BiosAttributes, current: BiosAttributes): ResolvedAttributes {
  const byName: BiosAttributes = {};
  const byKey: BiosAttributes = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(requested)) {
    if (name in current) {
      byKey[name] = value;
      continue;
    }
    const keys = matchingAttributeKeys(name, current);
    if (keys.length === 0) unknown.push(name);
    for (const key of keys) byName[key] = value;
  }
  return { attributes: { ...byName, ...byKey }, unknown };
}
