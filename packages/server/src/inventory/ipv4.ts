import { isIPv4 } from "node:net";

/** `10.100.0.1` → 174325761; undefined when the text is not a dotted-quad IPv4 address. */
export function ipv4ToNumber(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** The addresses of an IPv4 CIDR that can be handed out: every one but the network and broadcast addresses. */
export interface Ipv4Pool {
  cidr: string;
  first: number;
  last: number;
  size: number;
}

/** Parses `10.100.0.0/16`, or says why it is not a CIDR with an address to hand out. */
export function parseIpv4Pool(cidr: string): Ipv4Pool | { problem: string } {
  const match = /^([^/]+)\/(\d{1,2})$/.exec(cidr.trim());
  const base = match?.[1] === undefined ? undefined : ipv4ToNumber(match[1]);
  const prefix = Number(match?.[2]);
  if (base === undefined || !(prefix >= 0 && prefix <= 32)) {
    return { problem: `${JSON.stringify(cidr)} is not an IPv4 CIDR such as 10.100.0.0/16` };
  }
  if (prefix > 30) return { problem: `${cidr} has no address to hand out besides network and broadcast` };
  const blockSize = 2 ** (32 - prefix);
  const network = base - (base % blockSize);
  if (network !== base) {
    return { problem: `${cidr} has host bits set; the network is ${numberToIpv4(network)}/${prefix}` };
  }
  return {
    cidr: `${numberToIpv4(network)}/${prefix}`,
    first: network + 1,
    last: network + blockSize - 2,
    size: blockSize - 2,
  };
}
