/**
 * The `major.minor` an XCC version string ends with: `TGBT42S 2.83 2023-07-05` (manager) and `42S-2.83`
 * (firmware inventory) both give `2.83`.
 */
export function dottedVersion(raw: string | null | undefined): string | undefined {
  const matches = raw ? [...raw.matchAll(/(\d+)\.(\d+)/g)] : [];
  const last = matches.at(-1);
  return last ? `${Number(last[1])}.${last[2]}` : undefined;
}

/** Firmware combinations on which a Redfish ForceRestart also cuts the DPU's power (NICo's known quirk). */
const RESTART_CUTS_DPU_POWER: ReadonlyArray<{ sku: string; uefi: string; bmc: string }> = [
  { sku: "7D9RCTOLWW", uefi: "7.10", bmc: "9.10" }, // ThinkSystem SR675 V3 OVX
];

/** Whether this SKU could be affected at all (saves reading firmware versions on every other model). */
export function isRestartQuirkSku(sku: string | null | undefined): boolean {
  const wanted = sku?.trim().toUpperCase();
  return RESTART_CUTS_DPU_POWER.some((quirk) => quirk.sku === wanted);
}

/** ForceRestart must be sent as ForceOff, a pause, then On on this SKU and firmware. */
export function restartCutsDpuPower(
  sku: string | null | undefined,
  versions: { uefi: string | undefined; bmc: string | undefined },
): boolean {
  const wanted = sku?.trim().toUpperCase();
  return RESTART_CUTS_DPU_POWER.some(
    (quirk) => quirk.sku === wanted && quirk.uefi === versions.uefi && quirk.bmc === versions.bmc,
  );
}
