import { type BootOptionInfo, macFromText, normalizeMac } from "@racksmith/core";

// Supermicro names boot options `… Nvidia Network Adapter - 94:6D:AE:91:FB:22 - 946DAE91FB22`, but Intel
// ports only as `… X550 - 7CC255793F8E`, and some firmware as `… (MAC:A088C2EA84D0)`.
const COMPACT_MAC = /(?:- |MAC:)([0-9A-Fa-f]{12})\b/;

/** The MAC in a Supermicro boot option name, in either of its spellings. */
export function macFromBootOptionName(name: string): string | undefined {
  return macFromText(name) ?? normalizeMac(COMPACT_MAC.exec(name)?.[1]);
}

/** The option with its MAC filled in from the name when the UEFI device path did not give one. */
export function withNameMac(option: BootOptionInfo): BootOptionInfo {
  return option.mac ? option : { ...option, mac: macFromBootOptionName(option.displayName) };
}
