import { type BmcDriverDefinition, RedfishStandard, redfishStandardDriver } from "@racksmith/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EXAMPLE_MOCKUP } from "../index.js";
import { jsonResponse } from "../mockup/index.js";
import { DriverMockup, startDriverMockup, useDriverMockup } from "./driverMockup.js";
import { redfishCliArgs } from "./redfishCliArgs.js";
import { serviceProbeOf } from "./serviceProbe.js";

const SYSTEM = "/redfish/v1/Systems/1";
const PENDING = `${SYSTEM}/Bios/Settings`;

describe("a driver mockup used by a test file", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    { driver: redfishStandardDriver, mockup: EXAMPLE_MOCKUP, resetPaths: [SYSTEM, PENDING] },
  );

  it("serves the mockup with basic auth and gives the driver the probe", async () => {
    expect(bmc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(bmc.probe.systemIds).toEqual(["1"]);
    expect(await bmc.driver.powerState()).toBe("On");
    const anonymous = await fetch(`${bmc.url}${SYSTEM}`);
    expect(anonymous.status).toBe(401);
  });

  it("records writes (actions included) before the mockup answers, and forgets them when taken", async () => {
    await bmc.driver.setBios({ SriovGlobalEnable: "Enabled" });
    await bmc.driver.power("ForceOff");
    expect(bmc.writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `PATCH ${PENDING}`,
      `POST ${SYSTEM}/Actions/ComputerSystem.Reset`,
    ]);
    expect(bmc.writesTo("/Bios/")).toEqual([
      { method: "PATCH", path: PENDING, body: { Attributes: { SriovGlobalEnable: "Enabled" } } },
    ]);
    expect(bmc.takeWrites((w) => w.path.endsWith(".Reset"))).toHaveLength(1);
    expect(bmc.takeWrites()).toHaveLength(1);
    expect(bmc.writes).toEqual([]);
    expect(await bmc.driver.powerState()).toBe("Off");
  });

  it("reset() put back the resources named in resetPaths and forgot the writes", async () => {
    expect(bmc.writes).toEqual([]);
    expect((await bmc.read(SYSTEM)).PowerState).toBe("On");
    expect((await bmc.read(PENDING)).Attributes).toEqual({});
  });

  it("answers one intercepted write its own way, then lets the next through", async () => {
    bmc.intercept("PATCH", /\/Bios\/Settings$/, (write) =>
      jsonResponse(400, { error: { code: "Base.1.8.GeneralError", message: `no ${write.path}` } }),
    );
    await expect(bmc.driver.setBios({ SriovGlobalEnable: "Enabled" })).rejects.toMatchObject({
      details: { httpStatus: 400 },
    });
    await bmc.driver.setBios({ SriovGlobalEnable: "Enabled" });
    expect(bmc.takeWrites()).toHaveLength(2);
    expect(await bmc.driver.pendingBios()).toEqual({ SriovGlobalEnable: "Enabled" });
  });

  it("records the If-Match header of a write that has one", async () => {
    await bmc.client.patch(SYSTEM, { AssetTag: "rack-7" }, { ifMatch: "*" });
    await bmc.client.patch(SYSTEM, { AssetTag: "rack-8" });
    expect(bmc.takeWrites()).toEqual([
      { method: "PATCH", path: SYSTEM, body: { AssetTag: "rack-7" }, ifMatch: "*" },
      { method: "PATCH", path: SYSTEM, body: { AssetTag: "rack-8" } },
    ]);
  });

  it("saves resources and puts them back, removing one that was not there", async () => {
    const added = `${SYSTEM}/Oem/Test`;
    const restore = await bmc.save([SYSTEM, added]);
    await bmc.service.merge(SYSTEM, { AssetTag: "changed" });
    bmc.service.write(added, { Id: "Test" });
    restore();
    expect((await bmc.read(SYSTEM)).AssetTag).not.toBe("changed");
    await expect(bmc.read(added)).rejects.toThrow(`the mockup has no resource at ${added}`);
  });

  it("creates further drivers on the same client, with other settings", () => {
    const settings = { biosProfiles: {} };
    const other = bmc.createDriver({ settings });
    expect(other).not.toBe(bmc.driver);
    expect(other).toBeInstanceOf(RedfishStandard);
  });

  it("builds the racksmith redfish command for the mockup", () => {
    expect(bmc.redfishArgs("detect").join(" ")).toBe(
      `redfish --address ${bmc.url} --username root --password racksmith detect`,
    );
    expect(
      redfishCliArgs({ url: bmc.url, auth: "session", config: "racksmith.yaml" }, "bios").join(" "),
    ).toBe(
      `redfish --address ${bmc.url} --username root --password racksmith --auth session --config racksmith.yaml bios`,
    );
  });
});

describe("starting a driver mockup", () => {
  it("makes the driver with a factory, unprobed when asked, with the given credentials", async () => {
    class Probed extends RedfishStandard {}
    const credentials = { username: "admin", password: "Factory-1" };
    const bmc = await startDriverMockup({
      driver: (client, context) => new Probed(client, context),
      mockup: EXAMPLE_MOCKUP,
      credentials,
      probe: false,
    });
    try {
      expect(bmc.driver).toBeInstanceOf(Probed);
      expect(() => bmc.probe).toThrow(/probe: false/);
      expect(await bmc.driver.powerState()).toBe("On");
    } finally {
      await bmc.close();
      await bmc.close();
    }
    expect(() => bmc.driver).toThrow(/not started/);
  });

  it("says it is not started when used too early, and stops the server when the driver cannot be made", async () => {
    const unstarted = new DriverMockup({ driver: redfishStandardDriver, mockup: EXAMPLE_MOCKUP });
    expect(() => unstarted.server).toThrow(/not started/);
    const broken: BmcDriverDefinition = {
      ...redfishStandardDriver,
      create: () => {
        throw new Error("no driver today");
      },
    };
    const failing = new DriverMockup({ driver: broken, mockup: EXAMPLE_MOCKUP });
    await expect(failing.start()).rejects.toThrow("no driver today");
    expect(() => failing.url).toThrow(/not started/);
  });
});

describe("serviceProbeOf", () => {
  it("derives the vendor from Vendor, else the first Oem key, and takes overrides", () => {
    expect(serviceProbeOf({ Vendor: "Dell", Oem: { Dell: {} } })).toEqual({
      serviceRoot: { Vendor: "Dell", Oem: { Dell: {} } },
      vendor: "Dell",
      product: undefined,
      oemKeys: ["Dell"],
      metadata: undefined,
      systemIds: [],
      managerIds: [],
      chassisIds: [],
      diagnostics: [],
    });
    expect(
      serviceProbeOf({ Oem: { Supermicro: {} } }, { systemIds: ["1"], managerIds: undefined }),
    ).toMatchObject({
      vendor: "Supermicro",
      systemIds: ["1"],
      managerIds: [],
    });
  });
});
