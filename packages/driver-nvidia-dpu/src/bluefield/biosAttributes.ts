import { type BiosAttributes, REDACTED } from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";
import { BIOS_KEYS_RENAMED_IN, type BmcFirmwareVersion, isOlderThan } from "./firmwareVersion.js";

/** A BIOS attribute that BMC 24.10 renamed: today's key and the spaced key of older releases. */
export interface RenamedAttribute {
  current: string;
  legacy: string;
}

export const HOST_PRIVILEGE_LEVEL: RenamedAttribute = {
  current: "HostPrivilegeLevel",
  legacy: "Host Privilege Level",
};
export const INTERNAL_CPU_MODEL: RenamedAttribute = {
  current: "InternalCPUModel",
  legacy: "Internal CPU Model",
};

/** What DPU machine setup stages in the BIOS: the host may not reconfigure the DPU, the Arm cores own the NIC. */
export const MACHINE_SETUP_BIOS: ReadonlyArray<readonly [RenamedAttribute, BiosValue]> = [
  [HOST_PRIVILEGE_LEVEL, "Restricted"],
  [INTERNAL_CPU_MODEL, "Embedded"],
];

/** BF2 keeps its NIC/DPU mode in this BIOS attribute (`DpuMode` / `NicMode`). */
export const NIC_MODE_ATTRIBUTE = "NicMode";
/** Setting it resets the UEFI variables: the BlueField's "reset BIOS to defaults". */
export const RESET_EFI_VARS_ATTRIBUTE = "ResetEfiVars";
/** The UEFI password is changed by staging both attributes; the BMC never shows their values. */
export const UEFI_PASSWORD_ATTRIBUTES = { current: "CurrentUefiPassword", next: "UefiPassword" } as const;

const SECRETS: ReadonlySet<string> = new Set(Object.values(UEFI_PASSWORD_ATTRIBUTES));

export interface ResolvedKey {
  key: string;
  /** The other spelling, tried once if the BMC refuses a key it did not list. */
  alternative: string;
  /** False when the BMC lists neither spelling and the firmware release decided. */
  listed: boolean;
}

/** The key this BMC uses for a renamed attribute: the one it lists, else the one its firmware implies. */
export function resolveAttributeKey(
  attribute: RenamedAttribute,
  current: BiosAttributes,
  firmware: BmcFirmwareVersion | undefined,
): ResolvedKey {
  if (attribute.current in current)
    return { key: attribute.current, alternative: attribute.legacy, listed: true };
  if (attribute.legacy in current)
    return { key: attribute.legacy, alternative: attribute.current, listed: true };
  return isOlderThan(firmware, BIOS_KEYS_RENAMED_IN)
    ? { key: attribute.legacy, alternative: attribute.current, listed: false }
    : { key: attribute.current, alternative: attribute.legacy, listed: false };
}

export function isSecretAttribute(key: string): boolean {
  return SECRETS.has(key);
}

/** Password attributes with a value are shown redacted, so a staged password never leaves the driver. */
export function maskSecrets(attributes: BiosAttributes): BiosAttributes {
  const masked: BiosAttributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    masked[key] = isSecretAttribute(key) && value !== "" && value !== null ? REDACTED : value;
  }
  return masked;
}
