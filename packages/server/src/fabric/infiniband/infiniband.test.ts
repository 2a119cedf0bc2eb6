import { hasErrorCode } from "@racksmith/core";
import {
  checkInfiniBandFabricSecurity,
  checkInfiniBandQos,
  DEFAULT_PKEY,
  disabledInfiniBandFabric,
  formatPkey,
  type InfiniBandFabricDefinition,
  normalizeIbGuid,
  parsePkey,
  pkeyInRanges,
} from "@racksmith/core/infiniband";
import { describe, expect, it } from "vitest";
import { PluginHost } from "../../plugins/index.js";

describe("pkeys", () => {
  it("parse from hex or decimal and print as lowercase 0x hex", () => {
    expect(parsePkey("0x7FFF")).toBe(DEFAULT_PKEY);
    expect(parsePkey("103")).toBe(103);
    expect(parsePkey(0x67)).toBe(103);
    expect(formatPkey(103)).toBe("0x67");
    for (const bad of ["0x8000", "0", "-1", "0x", "12a", 1.5, 0x10000])
      expect(() => parsePkey(bad)).toThrow(/pkey .* is not valid/);
  });

  it("fall in a range only before its (exclusive) end", () => {
    const ranges = [{ start: 256, end: 2303 }];
    expect(pkeyInRanges(256, ranges)).toBe(true);
    expect(pkeyInRanges(2302, ranges)).toBe(true);
    expect(pkeyInRanges(2303, ranges)).toBe(false);
    expect(pkeyInRanges(255, ranges)).toBe(false);
  });
});

describe("GUIDs", () => {
  it("normalise to 16 lowercase hex digits", () => {
    expect(normalizeIbGuid("0x248A0703009C7E82")).toBe("248a0703009c7e82");
    expect(normalizeIbGuid("24:8a:07:03:00:9c:7e:82")).toBe("248a0703009c7e82");
    expect(() => normalizeIbGuid("248a0703009c7e8")).toThrow(/16 hex digits/);
  });
});

describe("QoS", () => {
  it("accepts UFM's values and names each bad one", () => {
    expect(checkInfiniBandQos({ mtu: 2, rateLimit: 2.5, serviceLevel: 15 })).toBeDefined();
    expect(() => checkInfiniBandQos({ mtu: 1, rateLimit: 2, serviceLevel: -1 })).toThrow(
      /mtu 1 .*rateLimit 2 .*serviceLevel -1/,
    );
  });
});

describe("security check", () => {
  const secure = {
    subnetPrefix: "0xfe80000000000000",
    mKey: "0x10",
    smKey: "0x20",
    saKey: "0x30",
    mKeyPerPort: true,
  };
  it("passes NICo's mock values and flags OpenSM's factory defaults", () => {
    expect(checkInfiniBandFabricSecurity(secure)).toEqual([]);
    const factory = { ...secure, mKey: "0x0000000000000000", smKey: "1", saKey: "0x1", mKeyPerPort: false };
    const partition = {
      pkey: DEFAULT_PKEY,
      name: "management",
      ipOverIb: true,
      defaultMembership: "full" as const,
    };
    expect(checkInfiniBandFabricSecurity(factory, partition).map((f) => f.setting)).toEqual([
      "m_key",
      "sm_key",
      "sa_key",
      "m_key_per_port",
      "default_membership",
    ]);
  });
});

describe("the disabled fabric", () => {
  it("fails every call with fabric_disabled naming the call", async () => {
    const fabric = disabledInfiniBandFabric();
    expect(fabric.name).toBe("disabled");
    const error = await fabric.bindGuids(0x101, ["248a0703009c7e82"]).catch((e: unknown) => e);
    expect(hasErrorCode(error, "fabric_disabled")).toBe(true);
    expect((error as Error).message).toMatch(
      /bindGuids: InfiniBand partitioning is disabled.*fabrics\.infiniband/,
    );
    for (const call of [
      fabric.versions(),
      fabric.listPartitions(),
      fabric.getPartition(1),
      fabric.listPorts(),
    ])
      await expect(call).rejects.toMatchObject({ code: "fabric_disabled", status: "FAILED_PRECONDITION" });
    await expect(fabric.close()).resolves.toBeUndefined();
  });
});

describe("registration", () => {
  const definition: InfiniBandFabricDefinition = { name: "ufm", create: () => disabledInfiniBandFabric() };
  const manifest = (name: string, fabric: InfiniBandFabricDefinition) => ({
    name,
    version: "1.0.0",
    apiVersion: 1,
    register: (registry: { infinibandFabric(d: InfiniBandFabricDefinition): void }) =>
      registry.infinibandFabric(fabric),
  });

  it("registers a plugin's fabric and refuses a duplicate or the reserved name", async () => {
    const host = new PluginHost();
    await host.register(manifest("a", definition), "a");
    expect(host.infinibandFabrics().map((entry) => [entry.definition.name, entry.source.plugin])).toEqual([
      ["ufm", "a"],
    ]);
    await expect(host.register(manifest("b", definition), "b")).rejects.toMatchObject({
      code: "plugin_duplicate",
    });
    await expect(
      host.register(manifest("c", { ...definition, name: "disabled" }), "c"),
    ).rejects.toMatchObject({
      code: "plugin_invalid",
    });
    expect(new PluginHost().infinibandFabrics()).toEqual([]);
  });
});
