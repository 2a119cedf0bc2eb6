import type { BiosAttributes } from "@racksmith/core";
import {
  ONE_SHOT_ATTRIBUTES,
  SERIAL_CONSOLE_ATTRIBUTES,
  TPM_CLEAR_ATTRIBUTES,
  UEFI_NIC_BOOT_ATTRIBUTES,
  VIRTUALIZATION_KEYS,
} from "./attributes.js";

/** The BIOS attributes machine setup writes, and those it can verify afterwards. */
export interface MachineSetupAttributes {
  /** In iLO's order: serial console, TPM clear, virtualization, UEFI NIC boot, then the operator profile. */
  apply: BiosAttributes;
  /** `apply` without one-shot attributes (the BIOS resets them after acting). */
  verify: BiosAttributes;
  /** Vendor defaults this BIOS does not have (left out rather than rejected by iLO as a whole). */
  skipped: string[];
}

/**
 * What machine setup writes on this BIOS. Vendor defaults missing from `current` are skipped (a model or ROM
 * family without them); the operator profile is sent as given and wins over the defaults.
 */
export function machineSetupAttributes(
  current: BiosAttributes,
  profile: BiosAttributes = {},
): MachineSetupAttributes {
  const virtualization = VIRTUALIZATION_KEYS.find((key) => key in current);
  const defaults: BiosAttributes = {
    ...SERIAL_CONSOLE_ATTRIBUTES,
    ...TPM_CLEAR_ATTRIBUTES,
    ...(virtualization ? { [virtualization]: "Enabled" } : {}),
    ...UEFI_NIC_BOOT_ATTRIBUTES,
  };
  const { present, missing } = presentIn(current, defaults);
  if (!virtualization) missing.push(VIRTUALIZATION_KEYS.join("|"));
  const apply = { ...present, ...profile };
  const verify = Object.fromEntries(Object.entries(apply).filter(([key]) => !ONE_SHOT_ATTRIBUTES.has(key)));
  return { apply, verify, skipped: missing };
}

/** Splits `wanted` into the attributes this BIOS has and the names of those it lacks. */
export function presentIn(
  current: BiosAttributes,
  wanted: Readonly<BiosAttributes>,
): { present: BiosAttributes; missing: string[] } {
  const present: BiosAttributes = {};
  const missing: string[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    if (key in current) present[key] = value;
    else missing.push(key);
  }
  return { present, missing };
}
