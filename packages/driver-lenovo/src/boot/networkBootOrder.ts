import { type BootOptionInfo, macFromText } from "@racksmith/core";
import type { RedfishObject } from "@racksmith/core/redfish";

/** Id of the XCC resource that orders the entries inside the `Network` boot group. */
export const NETWORK_BOOT_ORDER_ID = "BootOrder.NetworkBootOrder";

/**
 * `Systems/{s}/Oem/Lenovo/BootSettings/BootOrder.NetworkBootOrder`: the UEFI network boot entries, named like
 * `UEFI:   SLOT15 (65/0/0) HTTP IPv4  Mellanox Network Adapter - A0:88:C2:C3:6F:6E`. `BootOrderNext` is the
 * order the next boot uses (the writable one); `BootOrderSupported` is every entry the UEFI offers.
 */
export interface NetworkBootOrder {
  path: string;
  next: string[];
  supported: string[];
}

export function parseNetworkBootOrder(path: string, resource: RedfishObject): NetworkBootOrder {
  const next = strings(resource.BootOrderNext);
  const supported = strings(resource.BootOrderSupported);
  // An entry may be ordered without being listed as supported on some firmware; keep every one.
  return { path, next, supported: [...supported, ...next.filter((entry) => !supported.includes(entry))] };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

const HTTP_IPV4 = /\bHTTP\s+IPv4\b/i;

export function isHttpIpv4Entry(entry: string): boolean {
  return HTTP_IPV4.test(entry);
}

/** Whether the entry boots over HTTP IPv4 from the port with this MAC (upper-case, colon-separated). */
export function isDpuEntry(entry: string, mac: string): boolean {
  return isHttpIpv4Entry(entry) && macFromText(entry) === mac;
}

/** The HTTP IPv4 entry of the DPU port with this MAC, if the UEFI lists one. */
export function dpuEntry(order: NetworkBootOrder, mac: string): string | undefined {
  return order.supported.find((entry) => isDpuEntry(entry, mac));
}

/** The HTTP IPv4 entry the next network boot tries first among HTTP ones. */
export function firstHttpEntry(order: NetworkBootOrder): string | undefined {
  return [...order.next, ...order.supported].find(isHttpIpv4Entry);
}

/** A network entry shown as a boot option: its name is its reference, the MAC is read from the name. */
export function networkEntryOption(entry: string, order: NetworkBootOrder): BootOptionInfo {
  return {
    id: entry,
    reference: entry,
    displayName: entry,
    enabled: order.next.includes(entry),
    uefiDevicePath: undefined,
    mac: macFromText(entry),
  };
}
