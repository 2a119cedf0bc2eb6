import {
  type BootOptionInfo,
  type BootTarget,
  bootOptionMatches,
  findDpuBootOption,
  normalizeMac,
} from "@racksmith/core";

/** The BlueField UEFI names its boot entries; boot-first matches these prefixes (as NICo does). */
export const BOOT_FIRST_PREFIX: Readonly<Record<BootTarget, string>> = {
  uefiHttp: "UEFI HTTPv4",
  pxe: "UEFI PXEv4",
  hdd: "UEFI Non-Block Boot Device",
};

/** `BootSourceOverrideTarget` values. */
export const OVERRIDE_TARGET: Readonly<Record<BootTarget, string>> = {
  pxe: "Pxe",
  hdd: "Hdd",
  uefiHttp: "UefiHttp",
};

/** The option's MAC: from its device path, else from a `(MAC:5C257308F362…)` display name. */
export function optionMac(option: BootOptionInfo): string | undefined {
  return option.mac ?? normalizeMac(/\(MAC:([0-9A-Fa-f]{12})\b/.exec(option.displayName)?.[1]);
}

/** Enabled options, those earlier in the boot order first (options not in the order last). */
function inBootOrder(options: readonly BootOptionInfo[], order: readonly string[]): BootOptionInfo[] {
  const rank = (option: BootOptionInfo): number => {
    const index = order.indexOf(option.reference);
    return index < 0 ? order.length : index;
  };
  return options.filter((option) => option.enabled !== false).sort((a, b) => rank(a) - rank(b));
}

/** The option boot-first puts first: the BlueField entry name, else any option that boots the target. */
export function pickBootFirstOption(
  options: readonly BootOptionInfo[],
  order: readonly string[],
  target: BootTarget,
): BootOptionInfo | undefined {
  const candidates = inBootOrder(options, order);
  return (
    candidates.find((option) => option.displayName.startsWith(BOOT_FIRST_PREFIX[target])) ??
    candidates.find((option) => bootOptionMatches(option, target))
  );
}

/**
 * The option that HTTP-boots from this MAC: `UEFI HTTPv4 (MAC:…)` exactly, then its VLAN variants, then any
 * network option of the MAC (HTTP before PXE, IPv4 before IPv6).
 */
export function pickDpuHttpOption(
  options: readonly BootOptionInfo[],
  mac: string,
): BootOptionInfo | undefined {
  const hex = mac.replace(/:/g, "");
  const own = options.filter((option) => option.enabled !== false && optionMac(option) === mac);
  return (
    own.find((option) => option.displayName.toUpperCase() === `UEFI HTTPV4 (MAC:${hex})`) ??
    own.find((option) => option.displayName.startsWith(BOOT_FIRST_PREFIX.uefiHttp)) ??
    findDpuBootOption(
      own.map((option) => ({ ...option, mac })),
      mac,
    )
  );
}
