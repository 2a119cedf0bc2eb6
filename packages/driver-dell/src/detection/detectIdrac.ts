import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";

const IDRAC_PRODUCT = /integrated dell remote access controller|\bidrac\b/i;
const IDRAC_MANAGER = /^iDRAC\.Embedded\.\d+$/i;
const DELL_SYSTEM = /^System\.Embedded\.\d+$/i;

/** `Vendor`, else the first `Oem` key (older iDRAC firmware has no Vendor, only `Oem.Dell`). */
function vendorOf(root: ServiceRoot): string | undefined {
  return root.Vendor?.trim() || Object.keys(root.Oem ?? {})[0];
}

/**
 * How sure this is an iDRAC: the Dell vendor is required; the iDRAC product name and the iDRAC manager and
 * system ids raise the score. A Dell service that names another product and has no iDRAC manager (a chassis
 * manager, a switch) is left to the standard driver.
 */
export function detectIdrac(root: ServiceRoot, probe: ServiceProbe): number {
  if (!/^dell\b/i.test(vendorOf(root) ?? "")) return 0;
  const product = root.Product?.trim() ?? "";
  const idracProduct = IDRAC_PRODUCT.test(product);
  const idracManager = probe.managerIds.some((id) => IDRAC_MANAGER.test(id));
  if (product !== "" && !idracProduct && !idracManager) return 0;
  let score = 60;
  if (idracProduct) score += 25;
  if (idracManager) score += 5;
  if (probe.systemIds.some((id) => DELL_SYSTEM.test(id))) score += 5;
  if (root.Oem && "Dell" in root.Oem) score += 5;
  return Math.min(score, 100);
}
