import type { BootOptionInfo, BootTarget } from "../drivers/types.js";

const HTTP = /\bHTTPS?\b|UEFI HTTP|Uri\(/i;
const NETWORK = /\bPXE\b|\bNET[-\s]|\bNIC\b|Network|IPv4|IPv6|MAC\(/i;
const DISK =
  /HD\(|NVMe\(|Sata\(|Scsi\(|\bHard ?Disk\b|\bHDD\b|\bSSD\b|\bNVMe\b|\bSATA\b|ubuntu|linux|windows|\bOS\b/i;

/** Does this boot option boot the given target? Table-tested against real vendor option names. */
export function bootOptionMatches(option: BootOptionInfo, target: BootTarget): boolean {
  const haystack = `${option.displayName} ${option.uefiDevicePath ?? ""}`;
  switch (target) {
    case "uefiHttp":
      return HTTP.test(haystack);
    case "pxe":
      return !HTTP.test(haystack) && NETWORK.test(haystack);
    case "hdd":
      return !NETWORK.test(haystack) && DISK.test(haystack);
  }
}

/** The option to boot the DPU over HTTP (preferred) or PXE, IPv4 before IPv6, for the given MAC. */
export function findDpuBootOption(
  options: readonly BootOptionInfo[],
  mac: string,
): BootOptionInfo | undefined {
  const candidates = options.filter((option) => option.mac === mac);
  const rank = (option: BootOptionInfo): number => {
    const haystack = `${option.displayName} ${option.uefiDevicePath ?? ""}`;
    return (HTTP.test(haystack) ? 0 : 2) + (/IPv6/i.test(haystack) ? 1 : 0);
  };
  return [...candidates].sort((a, b) => rank(a) - rank(b))[0];
}

/** Why a DPU-first boot order is not supported on a BMC whose boot options name no MAC. */
export const NO_BOOT_OPTION_MAC = "no boot option names a MAC; cannot put the DPU first by MAC";

/**
 * Whether the DPU can be found by MAC at all: some boot option names one. No options at all is not this case
 * (a BMC may list them only after the host's first POST), so it stays "not found" there.
 */
export function bootOptionsNameMacs(options: readonly BootOptionInfo[]): boolean {
  return options.length === 0 || options.some((option) => option.mac !== undefined);
}

/** The boot order with the given reference moved to the front (nothing else reordered). */
export function moveToFront(order: readonly string[], reference: string): string[] {
  return [reference, ...order.filter((entry) => entry !== reference)];
}

/** Maps our target names to Redfish `BootSourceOverrideTarget` values. */
export const OVERRIDE_TARGET: Readonly<Record<BootTarget, string>> = {
  pxe: "Pxe",
  hdd: "Hdd",
  uefiHttp: "UefiHttp",
};
