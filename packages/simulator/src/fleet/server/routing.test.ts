import { describe, expect, it } from "vitest";
import { addressKey, forwardedHost, parseHost, requestedHost } from "./routing.js";

describe("forwardedHost (RFC 7239)", () => {
  it.each<[string | undefined, string | undefined]>([
    ['host="10.100.0.7"', "10.100.0.7"],
    ["host=10.100.0.7", "10.100.0.7"],
    ["for=192.0.2.60;proto=https;host=10.100.0.7:8443", "10.100.0.7:8443"],
    ['for=192.0.2.60, host="[fd00::7]:443"', "[fd00::7]:443"],
    ['for="[2001:db8::1]";HOST="bmc-7.lab"', "bmc-7.lab"],
    ['for="a,b;c";host="10.1.2.3"', "10.1.2.3"],
    ["for=192.0.2.60;proto=http", undefined],
    [undefined, undefined],
  ])("%s → %s", (value, expected) => {
    expect(forwardedHost(value)).toBe(expected);
  });
});

describe("parseHost and addressKey", () => {
  it.each<[string, string, string]>([
    ["10.100.0.7", "10.100.0.7", "10.100.0.7"],
    ["10.100.0.7:8443", "10.100.0.7:8443", "10.100.0.7"],
    ["[FD00::7]:443", "[fd00::7]:443", "[fd00::7]"],
    ["fd00::7", "[fd00::7]", "[fd00::7]"],
    ["BMC-7.Lab", "bmc-7.lab", "bmc-7.lab"],
  ])("%s → %s (without port %s)", (raw, full, bare) => {
    const host = parseHost(raw);
    expect(host && addressKey(host)).toBe(full);
    expect(host && addressKey(host, false)).toBe(bare);
  });
});

describe("requestedHost", () => {
  it("prefers Forwarded over Host", () => {
    expect(requestedHost({ forwarded: 'host="10.0.0.9"', host: "127.0.0.1:8700" })).toEqual({
      hostname: "10.0.0.9",
      port: undefined,
    });
    expect(requestedHost({ host: "10.0.0.9:443" })).toEqual({ hostname: "10.0.0.9", port: "443" });
    expect(requestedHost({})).toBeUndefined();
  });
});
