import type { Chassis } from "@racksmith/core/redfish";

/**
 * Grace-Grace ARS-121L-DNR cannot network-boot with the Redfish host interface off, so lockdown leaves it
 * on there.
 */
export function keepsHostInterfaceOn(systemModel: string | undefined): boolean {
  return /\bARS-121L-DNR\b/i.test(systemModel ?? "");
}

/**
 * MGX C2 (NVIDIA PG535 processor module) talks to the BMC over SSIF, not KCS: there is no KCSInterface
 * resource; the system's `IPMIHostInterface` switch replaces it.
 */
export function isMgxC2(chassis: readonly Chassis[]): boolean {
  return chassis.some(
    (c) =>
      /^nvidia$/i.test(c.Manufacturer ?? "") &&
      ((c.Model ?? "").startsWith("PG535") || (c.PartNumber ?? "").includes("2G535")),
  );
}

/** First BMC firmware with `IPMIHostInterface` on the system (MGX C2). */
export const IPMI_HOST_INTERFACE_MIN_FIRMWARE = "01.05.01";

/**
 * Compares dotted firmware versions numerically (`01.05.01` < `01.10.00`); undefined when either is not a
 * dotted number, so callers can treat an unreadable version as too old.
 */
export function compareFirmware(a: string | undefined, b: string): number | undefined {
  const parse = (v: string | undefined): number[] | undefined =>
    v && /^\d+(\.\d+)*$/.test(v.trim()) ? v.trim().split(".").map(Number) : undefined;
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return undefined;
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/** Whether this BMC firmware has at least `minimum` (false when the version cannot be read). */
export function firmwareAtLeast(version: string | undefined, minimum: string): boolean {
  return (compareFirmware(version, minimum) ?? -1) >= 0;
}
