import type { ServiceRoot } from "@racksmith/core/redfish";

/** Confidence when the service root names Supermicro; anything above the standard driver's 1 wins. */
export const SUPERMICRO_SCORE = 90;

/**
 * Supermicro BMCs publish no `Vendor`; they are known by the first `Oem` key, `Supermicro` (NICo's rule).
 * A root that does name a `Vendor` is that vendor's, whatever its `Oem` holds.
 */
export function detectSupermicro(serviceRoot: ServiceRoot): number {
  const vendor = serviceRoot.Vendor?.trim() || Object.keys(serviceRoot.Oem ?? {})[0] || "";
  return vendor.toLowerCase() === "supermicro" ? SUPERMICRO_SCORE : 0;
}
