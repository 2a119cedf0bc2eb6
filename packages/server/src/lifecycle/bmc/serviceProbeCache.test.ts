import type { BmcDriver, BmcDriverDefinition, DriverContext } from "@racksmith/core";
import { NotSupportedError, redfishStandardDriver, silentLogger } from "@racksmith/core";
import type { RedfishClient, ServiceProbe } from "@racksmith/core/redfish";
import { RedfishConnectionError } from "@racksmith/core/redfish";
import { describe, expect, it } from "vitest";
import { createDriverWithCachedProbe, ServiceProbeCache } from "./serviceProbeCache.js";

/** A BMC's description as `probeService` makes it: its own objects, equal to another BMC's where alike. */
const probeOf = (vendor: string, uuid = "4c4c4544-0000-1000-8000-000000000001"): ServiceProbe => ({
  serviceRoot: {
    "@odata.id": "/redfish/v1",
    "@odata.type": "#ServiceRoot.v1_5_0.ServiceRoot",
    Id: "RootService",
    UUID: uuid,
    Vendor: vendor,
    Systems: { "@odata.id": "/redfish/v1/Systems" },
    Links: { Sessions: { "@odata.id": "/redfish/v1/SessionService/Sessions" } },
    ProtocolFeaturesSupported: { ExpandQuery: { Levels: true, MaxLevels: 1 } },
  },
  vendor,
  product: "iDRAC",
  oemKeys: ["Dell"],
  metadata: { namespaces: ["ServiceRoot.v1_5_0"], oemNamespaces: ["DellOem"], oemPrefixes: ["Dell"] },
  systemIds: ["System.Embedded.1"],
  managerIds: ["iDRAC.Embedded.1"],
  chassisIds: ["System.Embedded.1"],
  diagnostics: [],
});

describe("ServiceProbeCache", () => {
  it("keeps a description until its time is up, and forgets deleted and departed BMCs", () => {
    let now = 0;
    const cache = new ServiceProbeCache(1_000, () => now);
    cache.set("10.0.0.1", probeOf("a"));
    cache.set("10.0.0.2", probeOf("b"));
    cache.set("10.0.0.3", probeOf("c"));
    now = 999;
    expect(cache.get("10.0.0.1")).toEqual(probeOf("a"));
    now = 1_000;
    expect(cache.get("10.0.0.1")).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.delete("10.0.0.2");
    cache.retain(new Set(["10.0.0.1", "10.0.0.2"]));
    expect(cache.size).toBe(0);
  });

  it("keeps the explorer's driver choice as long as a description, and drops it with one", () => {
    let now = 0;
    const cache = new ServiceProbeCache(1_000, () => now);
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) cache.setDriver(address, `d-${address}`);
    now = 999;
    expect(cache.driverOf("10.0.0.1")).toBe("d-10.0.0.1");
    cache.delete("10.0.0.2");
    expect(cache.driverOf("10.0.0.2")).toBeUndefined();
    cache.retain(new Set(["10.0.0.1"]));
    expect(cache.driverOf("10.0.0.3")).toBeUndefined();
    now = 1_000;
    expect(cache.driverOf("10.0.0.1")).toBeUndefined();
  });

  it("keeps descriptions frozen, sharing what two BMCs have in common", () => {
    const cache = new ServiceProbeCache();
    cache.set("10.0.0.1", probeOf("Dell", "uuid-1"));
    cache.set("10.0.0.2", probeOf("Dell", "uuid-2"));
    const [first, second] = [cache.get("10.0.0.1"), cache.get("10.0.0.2")];
    expect(first).toEqual(probeOf("Dell", "uuid-1"));
    expect(second?.serviceRoot.UUID).toBe("uuid-2");
    expect(first?.serviceRoot).not.toBe(second?.serviceRoot);
    expect(first?.serviceRoot.Links).toBe(second?.serviceRoot.Links);
    expect(first?.metadata).toBe(second?.metadata);
    expect(first?.systemIds).toBe(second?.systemIds);
    expect(() => {
      (first?.serviceRoot.Systems as { "@odata.id": string })["@odata.id"] = "/elsewhere";
    }).toThrow(TypeError);
    expect(() => first?.chassisIds.push("Other")).toThrow(TypeError);
    expect(second?.serviceRoot.Systems?.["@odata.id"]).toBe("/redfish/v1/Systems");
  });
});

/** A definition whose drivers record the context they were made with and count their `probe()` calls. */
function countingDefinition(withProbe: boolean) {
  const made: DriverContext[] = [];
  let probes = 0;
  const definition: BmcDriverDefinition = {
    ...redfishStandardDriver,
    create: (client: RedfishClient, context: DriverContext) => {
      made.push(context);
      const driver = {
        name: "counting",
        client,
        // Fails as told: the cache must forget the BMC's description after anything but lacking support.
        power: async (outcome: "ok" | "unsupported" | "failed") => {
          if (outcome === "unsupported") throw new NotSupportedError("power", "no power control here");
          if (outcome === "failed") throw new RedfishConnectionError("10.0.0.1", "reset");
          return "done";
        },
      } as unknown as BmcDriver;
      if (withProbe) {
        Object.assign(driver, {
          probe: async () => {
            probes += 1;
            return context.probe ?? probeOf(`described ${probes}`);
          },
        });
      }
      return driver;
    },
  };
  return { definition, made, probes: () => probes };
}

describe("createDriverWithCachedProbe", () => {
  const client = {} as RedfishClient;

  it("describes a BMC at the first contact and hands the description to the next driver", async () => {
    const cache = new ServiceProbeCache();
    const { definition, made, probes } = countingDefinition(true);
    await createDriverWithCachedProbe(definition, client, { logger: silentLogger }, cache, "10.0.0.1");
    await createDriverWithCachedProbe(definition, client, { logger: silentLogger }, cache, "10.0.0.1");
    expect(probes()).toBe(1);
    expect(made.map((context) => context.probe)).toEqual([undefined, probeOf("described 1")]);
    cache.delete("10.0.0.1");
    await createDriverWithCachedProbe(definition, client, { logger: silentLogger }, cache, "10.0.0.1");
    expect(probes()).toBe(2);
  });

  it("caches nothing for a driver that cannot describe its BMC", async () => {
    const cache = new ServiceProbeCache();
    const { definition } = countingDefinition(false);
    await createDriverWithCachedProbe(definition, client, { logger: silentLogger }, cache, "10.0.0.1");
    expect(cache.size).toBe(0);
  });

  it("forgets the description when an operation fails, but not when the BMC lacks the operation", async () => {
    const cache = new ServiceProbeCache();
    const { definition, probes } = countingDefinition(true);
    const open = () =>
      createDriverWithCachedProbe(definition, client, { logger: silentLogger }, cache, "10.0.0.1");
    const power = async (outcome: string) =>
      ((await open()) as unknown as { power(outcome: string): Promise<string> }).power(outcome);
    expect(await open()).toMatchObject({ name: "counting" });
    await expect(power("ok")).resolves.toBe("done");
    await expect(power("unsupported")).rejects.toBeInstanceOf(NotSupportedError);
    expect(cache.size).toBe(1);
    expect(probes()).toBe(1);
    await expect(power("failed")).rejects.toBeInstanceOf(RedfishConnectionError);
    expect(cache.size).toBe(0);
    await open();
    expect(probes()).toBe(2);
  });
});
