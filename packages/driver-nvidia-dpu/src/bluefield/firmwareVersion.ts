/** A BlueField BMC firmware version, `BF-24.10-10` → 24, 10, 10. */
export interface BmcFirmwareVersion {
  major: number;
  minor: number;
  build: number;
  text: string;
}

const VERSION = /(\d+)\.(\d+)(?:-(\d+))?/;

/** Undefined when the text is not a BlueField BMC version (callers then assume a current firmware). */
export function parseBmcFirmware(text: string | undefined): BmcFirmwareVersion | undefined {
  const match = text ? VERSION.exec(text) : null;
  if (!match || !text) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    build: Number(match[3] ?? 0),
    text: text.trim(),
  };
}

/** True when `version` is known and strictly older than `minimum`. */
export function isOlderThan(version: BmcFirmwareVersion | undefined, minimum: BmcFirmwareVersion): boolean {
  if (!version) return false;
  const a = [version.major, version.minor, version.build];
  const b = [minimum.major, minimum.minor, minimum.build];
  const differing = a.findIndex((value, index) => value !== b[index]);
  return differing >= 0 && (a[differing] ?? 0) < (b[differing] ?? 0);
}

/** NIC/DPU mode is readable and settable through Redfish from this BMC release on. */
export const NIC_MODE_MIN_FIRMWARE: BmcFirmwareVersion = {
  major: 23,
  minor: 10,
  build: 5,
  text: "BF-23.10-5",
};

/** BMC 24.10 renamed the spaced BIOS keys (`Host Privilege Level` → `HostPrivilegeLevel`). */
export const BIOS_KEYS_RENAMED_IN: BmcFirmwareVersion = { major: 24, minor: 10, build: 0, text: "BF-24.10" };
