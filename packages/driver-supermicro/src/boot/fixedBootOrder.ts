import { BootOptionNotFoundError, type BootTarget, moveToFront } from "@racksmith/core";
import type { FixedBootOrder } from "../oem/index.js";

const NETWORK_CATEGORY = "UEFI Network";
const HARD_DISK_CATEGORY = "UEFI Hard Disk";
const DPU_ADAPTER = /\b(Mellanox|Nvidia) Network Adapter\b/i;
const HTTP_HINT =
  "the BIOS lists UEFI HTTP devices only after IPv4HTTPSupport is enabled and the host rebooted";

/** What a PATCH of the fixed boot order sends. */
export interface FixedBootOrderPatch {
  FixedBootOrder: string[];
  UEFINetwork?: string[];
}

/** `UEFI Network:(B26/D0/F0) UEFI PXE IPv4 …` → `UEFI Network` (the device part may hold colons: MACs). */
export function entryCategory(entry: string): string {
  const colon = entry.indexOf(":");
  return (colon < 0 ? entry : entry.slice(0, colon)).trim();
}

/** Whether a device entry names this MAC (`94:6D:AE:91:FB:22` or `946DAE91FB22`); `mac` is normalized. */
function entryMatchesMac(entry: string, mac: string): boolean {
  const text = entry.toUpperCase();
  return text.includes(mac) || text.includes(mac.replaceAll(":", ""));
}

/** The category order with `first` then the other of network / hard disk, every other category disabled. */
function categoryOrder(fbo: FixedBootOrder, first: "network" | "hardDisk"): string[] {
  const entries = fbo.FixedBootOrder ?? [];
  const network = entries.find((e) => entryCategory(e) === NETWORK_CATEGORY) ?? NETWORK_CATEGORY;
  const disk = entries.find((e) => entryCategory(e) === HARD_DISK_CATEGORY) ?? HARD_DISK_CATEGORY;
  const disabled = fbo.FixedBootOrderDisabledItem?.[0] ?? "Disabled";
  const head = first === "network" ? [network, disk] : [disk, network];
  return [...head, ...Array.from({ length: Math.max(entries.length - head.length, 0) }, () => disabled)];
}

/** HTTP before PXE, IPv4 before IPv6: how fast and how reliably the DPU boots the host. */
function networkRank(entry: string): number {
  return (/\bHTTP\b/i.test(entry) ? 0 : 2) + (/IPv6/i.test(entry) ? 1 : 0);
}

/** The network device entry the DPU boots the host from, for the DPU's host-facing MAC. */
function dpuNetworkEntry(fbo: FixedBootOrder, mac: string): string | undefined {
  return (fbo.UEFINetwork ?? [])
    .filter((entry) => entryMatchesMac(entry, mac))
    .sort((a, b) => networkRank(a) - networkRank(b))[0];
}

/** The Mellanox / NVIDIA adapter entry to try first when booting from the network. */
function dpuAdapterEntry(fbo: FixedBootOrder, target: "pxe" | "uefiHttp"): string | undefined {
  const entries = (fbo.UEFINetwork ?? []).filter((entry) => DPU_ADAPTER.test(entry));
  const http = entries.find((entry) => /UEFI HTTP IPv4/i.test(entry));
  return target === "uefiHttp" ? http : (http ?? entries.find((entry) => /UEFI PXE IPv4/i.test(entry)));
}

/**
 * Boot first from `target`: network and hard disk lead, every other category is disabled; for a network
 * target the DPU's adapter moves to the front of the network devices.
 */
export function bootFirstPatch(fbo: FixedBootOrder, target: BootTarget): FixedBootOrderPatch {
  if (target === "hdd") return { FixedBootOrder: categoryOrder(fbo, "hardDisk") };
  const adapter = dpuAdapterEntry(fbo, target);
  if (target === "uefiHttp" && !adapter) {
    throw new BootOptionNotFoundError("UEFI HTTP IPv4 boot from a Mellanox/NVIDIA adapter", {
      hint: HTTP_HINT,
    });
  }
  return {
    FixedBootOrder: categoryOrder(fbo, "network"),
    ...(adapter ? { UEFINetwork: moveToFront(fbo.UEFINetwork ?? [], adapter) } : {}),
  };
}

/** Network first, and within it the DPU's boot device for `mac` first. */
export function dpuFirstPatch(fbo: FixedBootOrder, mac: string): FixedBootOrderPatch {
  const entry = dpuNetworkEntry(fbo, mac);
  if (!entry) throw new BootOptionNotFoundError(`network boot from ${mac}`, { hint: HTTP_HINT });
  return {
    FixedBootOrder: categoryOrder(fbo, "network"),
    UEFINetwork: moveToFront(fbo.UEFINetwork ?? [], entry),
  };
}

/** Whether the host boots the network first and, there, the DPU's device for `mac` first. */
export function isDpuFirstInFixedOrder(fbo: FixedBootOrder, mac: string): boolean {
  const entry = dpuNetworkEntry(fbo, mac);
  const first = fbo.FixedBootOrder?.[0];
  return (
    entry !== undefined &&
    first !== undefined &&
    entryCategory(first) === NETWORK_CATEGORY &&
    fbo.UEFINetwork?.[0] === entry
  );
}
