import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { CARD_CHASSIS_ID } from "../bluefield/index.js";

/** Scores by strength of evidence; RedfishStandard scores 1 and other vendors' drivers score 0 here. */
export const DETECTION_SCORE = {
  /** NVIDIA vendor, a `Bluefield` system and a `Card1` chassis. */
  bluefieldSystemAndCard: 95,
  /** NVIDIA vendor and a `Bluefield` system, or a `Card1` chassis managed by `Bluefield_BMC`. */
  bluefieldSystemOrCard: 80,
  /** NVIDIA vendor and a BlueField BMC product name only (e.g. the collections could not be read). */
  productOnly: 60,
} as const;

// NVIDIA BMCs that are not DPUs: GB200/GBx00 compute trays, GH200 and NVLink switch trays (product P3809).
const OTHER_NVIDIA_PRODUCTS = /\bGB\d{3}\b|\bGBx00\b|\bGH\d{3}\b|\bP3809\b/i;
const BLUEFIELD_PRODUCT = /BlueField|BMCMezz/i;

function vendorOf(serviceRoot: ServiceRoot, probe: ServiceProbe): string {
  return (probe.vendor ?? serviceRoot.Vendor ?? Object.keys(serviceRoot.Oem ?? {})[0] ?? "")
    .trim()
    .toLowerCase();
}

/** How sure we are that this is a BlueField DPU's BMC (0 = not one). */
export function detectBluefield(serviceRoot: ServiceRoot, probe: ServiceProbe): number {
  if (vendorOf(serviceRoot, probe) !== "nvidia") return 0;
  const product = probe.product ?? serviceRoot.Product ?? "";
  if (OTHER_NVIDIA_PRODUCTS.test(product)) return 0;
  const hasBluefieldSystem = probe.systemIds.some((id) => id.toLowerCase() === "bluefield");
  const hasCard = probe.chassisIds.includes(CARD_CHASSIS_ID);
  if (hasBluefieldSystem && hasCard) return DETECTION_SCORE.bluefieldSystemAndCard;
  const hasBluefieldManager = probe.managerIds.some((id) => id.toLowerCase() === "bluefield_bmc");
  if (hasBluefieldSystem || (hasCard && hasBluefieldManager)) return DETECTION_SCORE.bluefieldSystemOrCard;
  return BLUEFIELD_PRODUCT.test(product) ? DETECTION_SCORE.productOnly : 0;
}
