import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supermicroMockup } from "./support/mockups.js";

describe("AC power cycle on SYS-121H-TNR (OemSystemExtensions.Reset advertised)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-121h-tnr"));

  it("posts ResetType ACCycle to the OEM action, and the host boots with staged BIOS settings applied", async () => {
    await bmc.driver.power("ForceOff");
    await bmc.driver.setBios({ QuietBoot: false });
    await bmc.driver.power("ACPowercycle");
    expect(bmc.server.actions.at(-1)).toMatchObject({
      path: "/redfish/v1/Systems/1/Actions/Oem/OemSystemExtensions.Reset",
      action: "#OemSystemExtensions.Reset",
      body: { ResetType: "ACCycle" },
    });
    expect(await bmc.driver.powerState()).toBe("On");
    expect((await bmc.driver.bios())["QuietBoot#002D"]).toBe(false);
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("keeps the standard resets idempotent and checked against the advertised ResetTypes", async () => {
    await bmc.driver.power("On");
    const before = bmc.server.actions.length;
    await bmc.driver.power("On");
    expect(bmc.server.actions).toHaveLength(before);
    await bmc.driver.power("PowerCycle");
    expect(bmc.server.actions.at(-1)?.body).toEqual({ ResetType: "PowerCycle" });
  });
});

describe("AC power cycle on SYS-821GE-TNHR (action not advertised)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-821ge-tnhr"));

  it("tries the conventional OEM target and says not supported when the BMC has no such action", async () => {
    await expect(bmc.driver.power("ACPowercycle")).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("OemSystemExtensions.Reset"),
    });
    expect(await bmc.driver.powerState()).toBe("On");
  });

  it("refuses an advertised action whose allowable ResetTypes lack ACCycle, without posting", async () => {
    await bmc.server.service.merge("/redfish/v1/Systems/1", {
      Actions: {
        Oem: {
          "#OemSystemExtensions.Reset": {
            target: "/redfish/v1/Systems/1/Actions/Oem/OemSystemExtensions.Reset",
            "ResetType@Redfish.AllowableValues": ["DCCycle"],
          },
        },
      },
    });
    const before = bmc.server.actions.length;
    await expect(bmc.driver.power("ACPowercycle")).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("DCCycle"),
    });
    expect(bmc.server.actions).toHaveLength(before);
  });
});
