import {
  type BootOptionInfo,
  type BootTarget,
  bootOptionMatches,
  macFromText,
  macFromUefiDevicePath,
} from "@racksmith/core";
import type { HpeBootSource, HpeServerBootSettings } from "../ilo/index.js";

/** What a `PersistentBootConfigOrder` entry boots. */
export type BootEntryKind = "http" | "pxe" | "disk" | "other";

/** The entry kinds each boot target moves to the front; machine setup moves every network entry. */
export const KINDS_FOR: Readonly<Record<BootTarget | "network", readonly BootEntryKind[]>> = {
  pxe: ["pxe"],
  uefiHttp: ["http"],
  hdd: ["disk"],
  network: ["http", "pxe"],
};

function asBootOption(source: HpeBootSource): BootOptionInfo {
  const displayName = source.BootString ?? "";
  return {
    id: source.StructuredBootString ?? "",
    reference: source.BootOptionNumber ?? "",
    displayName,
    enabled: undefined,
    uefiDevicePath: source.UEFIDevicePath,
    mac: macFromUefiDevicePath(source.UEFIDevicePath) ?? macFromText(displayName),
  };
}

/**
 * Classifies an entry by its boot source (name and device path); an entry iLO lists without a source is
 * classified by its structured name (`NIC.Slot.1.1.Httpv4`, `HD.Slot.3.1`).
 */
export function bootEntryKind(entry: string, source: HpeBootSource | undefined): BootEntryKind {
  if (source) {
    const option = asBootOption(source);
    if (bootOptionMatches(option, "uefiHttp")) return "http";
    if (bootOptionMatches(option, "pxe")) return "pxe";
    return bootOptionMatches(option, "hdd") ? "disk" : "other";
  }
  const name = entry.toLowerCase();
  if (name.startsWith("nic.")) return /\.http/.test(name) ? "http" : "pxe";
  return name.startsWith("hd.") ? "disk" : "other";
}

/**
 * The persistent boot order with the entries of the given kinds moved to the front, keeping their relative
 * order, and `first` (a structured boot string) ahead of everything. `matched` counts the entries moved.
 */
export function reorderBootEntries(
  boot: HpeServerBootSettings,
  kinds: readonly BootEntryKind[],
  first?: string,
): { order: string[]; matched: number } {
  const order = boot.PersistentBootConfigOrder ?? [];
  const sources = new Map((boot.BootSources ?? []).map((source) => [source.StructuredBootString, source]));
  const wanted = order.filter(
    (entry) => entry === first || kinds.includes(bootEntryKind(entry, sources.get(entry))),
  );
  const front = first && order.includes(first) ? [first, ...wanted.filter((e) => e !== first)] : wanted;
  return { order: [...front, ...order.filter((entry) => !front.includes(entry))], matched: front.length };
}

/** iLO names the DPU's boot option `… - <MAC> (HTTP(S) IPv4)`: HTTP, IPv4 and the MAC must all match. */
export function isHttpIpv4BootFor(
  displayName: string,
  uefiDevicePath: string | undefined,
  mac: string,
): boolean {
  const haystack = `${displayName} ${uefiDevicePath ?? ""}`;
  const http = /\bHTTPS?\b|Uri\(/i.test(haystack);
  const ipv4 = /IPv4/i.test(haystack);
  return http && ipv4 && (macFromText(displayName) === mac || macFromUefiDevicePath(uefiDevicePath) === mac);
}

/** The boot source that HTTP-boots the DPU port with this MAC over IPv4. */
export function dpuBootSource(boot: HpeServerBootSettings, mac: string): HpeBootSource | undefined {
  return (boot.BootSources ?? []).find((source) =>
    isHttpIpv4BootFor(source.BootString ?? "", source.UEFIDevicePath, mac),
  );
}
