import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";

/** Score when the root names HPE and carries iLO's service extension with an iLO manager. */
export const ILO_SCORE = 95;
/** HPE with `Oem.Hpe`, but the extension does not say iLO. */
export const HPE_OEM_SCORE = 85;
/** Vendor HPE without any `Oem.Hpe`: an HPE-branded BMC that may not be an iLO; beats only the standard. */
export const HPE_VENDOR_ONLY_SCORE = 20;

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `Oem.Hpe.Manager[].ManagerType` (`iLO 5`) or the moniker iLO publishes (`PRODGEN: iLO 6`). */
function saysIlo(extension: Record<string, unknown>): boolean {
  const managers = Array.isArray(extension.Manager) ? extension.Manager : [];
  const types = managers.map((manager) => record(manager)?.ManagerType);
  const moniker = record(extension.Moniker);
  return [...types, moniker?.PRODGEN, moniker?.BMC].some(
    (value) => typeof value === "string" && /^iLO\b/i.test(value.trim()),
  );
}

/** Recognises HPE iLO from the service root: `Vendor` (else the first `Oem` key) and iLO's `Oem.Hpe`. */
export function detectHpe(root: ServiceRoot, _probe?: ServiceProbe): number {
  const oem = record(root.Oem) ?? {};
  const vendor = (root.Vendor?.trim() || Object.keys(oem)[0] || "").toLowerCase();
  if (vendor !== "hpe") return 0;
  const extension = record(oem.Hpe);
  if (!extension) return HPE_VENDOR_ONLY_SCORE;
  return saysIlo(extension) ? ILO_SCORE : HPE_OEM_SCORE;
}
