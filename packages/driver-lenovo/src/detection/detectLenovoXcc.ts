import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";

/** Vendor string alone (the SR670 V2 capture has no `Product` and no root `Oem`). */
const VENDOR_SCORE = 80;
/** `$metadata` publishes `Lenovo*` namespaces: the OEM resources this driver uses exist. */
const METADATA_BONUS = 15;
/** A `Lenovo` root OEM section or an XCC/ThinkSystem product name. */
const ROOT_BONUS = 5;

const AMI = /^ami$/i;

/**
 * How sure we are that this service root is a Lenovo XClarity Controller. The vendor comes from `Vendor`,
 * else the first root `Oem` key. Lenovo also sells AMI-based BMCs (GPU trays): they carry an `Ami` OEM section
 * and none of the XCC OEM resources, so they are not ours.
 */
export function detectLenovoXcc(root: ServiceRoot, probe: ServiceProbe): number {
  const oemKeys = Object.keys(root.Oem ?? {});
  const vendor = (root.Vendor?.trim() || oemKeys[0] || "").toLowerCase();
  if (vendor !== "lenovo") return 0;
  const prefixes = probe.metadata?.oemPrefixes ?? [];
  const lenovoMetadata = prefixes.includes("Lenovo");
  const amiBmc =
    oemKeys.some((key) => AMI.test(key)) || (!lenovoMetadata && prefixes.some((p) => AMI.test(p)));
  if (amiBmc) return 0;
  let score = VENDOR_SCORE;
  if (lenovoMetadata) score += METADATA_BONUS;
  if (oemKeys.includes("Lenovo") || /XClarity|ThinkSystem/i.test(root.Product ?? "")) score += ROOT_BONUS;
  return Math.min(score, 100);
}
