import { describe, expect, it } from "vitest";
import { preferredAddress } from "./dhcp/poolStart.js";
import { ipv4ToNumber, numberToIpv4, parseIpv4Pool } from "./ipv4.js";

describe("IPv4 pools", () => {
  it.each([
    ["10.100.0.0/16", { cidr: "10.100.0.0/16", first: "10.100.0.1", last: "10.100.255.254", size: 65534 }],
    ["192.168.1.0/30", { cidr: "192.168.1.0/30", first: "192.168.1.1", last: "192.168.1.2", size: 2 }],
    [" 0.0.0.0/0 ", { cidr: "0.0.0.0/0", first: "0.0.0.1", last: "255.255.255.254", size: 2 ** 32 - 2 }],
  ])("%s", (cidr, expected) => {
    const pool = parseIpv4Pool(cidr);
    if ("problem" in pool) throw new Error(pool.problem);
    expect({ ...pool, first: numberToIpv4(pool.first), last: numberToIpv4(pool.last) }).toEqual(expected);
  });

  it.each([
    ["10.100.0.0", "is not an IPv4 CIDR"],
    ["10.100.0.0/33", "is not an IPv4 CIDR"],
    ["10.300.0.0/16", "is not an IPv4 CIDR"],
    ["10.0.0.4/31", "has no address to hand out"],
    ["10.100.7.0/16", "has host bits set; the network is 10.100.0.0/16"],
  ])("refuses %s", (cidr, problem) => {
    expect(parseIpv4Pool(cidr)).toEqual({ problem: expect.stringContaining(problem) });
  });

  it("converts addresses both ways", () => {
    expect(ipv4ToNumber("255.255.255.255")).toBe(2 ** 32 - 1);
    expect(numberToIpv4(2 ** 32 - 1)).toBe("255.255.255.255");
    expect(ipv4ToNumber("1.2.3")).toBeUndefined();
  });

  it("starts each MAC's search at a stable point inside the pool", () => {
    const pool = parseIpv4Pool("10.0.0.0/29");
    if ("problem" in pool) throw new Error(pool.problem);
    const starts = Array.from({ length: 64 }, (_, i) =>
      preferredAddress(pool, `AA:BB:CC:DD:EE:${i.toString(16).padStart(2, "0")}`),
    );
    expect(starts.every((start) => start >= pool.first && start <= pool.last)).toBe(true);
    expect(new Set(starts).size).toBe(pool.size);
    expect(preferredAddress(pool, "AA:BB:CC:DD:EE:00")).toBe(starts[0]);
  });
});
