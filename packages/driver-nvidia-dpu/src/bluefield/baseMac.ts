import { normalizeMac } from "@racksmith/core";

/** `Oem.Nvidia.BaseMAC` (`5c257308f352`) as a colon-separated MAC. */
export function baseMacFromOem(value: unknown): string | undefined {
  return normalizeMac(value);
}

/**
 * The base MAC inside the `DPU_SYS_IMAGE` version, which is the card's base GUID (`5c25:7303:0008:f352`):
 * 19 characters; without colons the GUID is the MAC with two bytes (`0300`) inserted after the OUI.
 */
export function baseMacFromSysImage(version: unknown): string | undefined {
  if (typeof version !== "string" || version.trim().length !== 19) return undefined;
  const guid = version.trim().replace(/:/g, "");
  if (!/^[0-9a-f]{16}$/i.test(guid)) return undefined;
  return normalizeMac(`${guid.slice(0, 6)}${guid.slice(10)}`);
}
