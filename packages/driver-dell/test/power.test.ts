import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIOS, BIOS_SETTINGS, DellMockup, idracError, SYSTEM } from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const RESET = `${SYSTEM}/Actions/ComputerSystem.Reset`;

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));
beforeEach(async () => {
  await mockup.service.merge(SYSTEM, { PowerState: "On" });
  await mockup.resetQueue();
});

describe("power", () => {
  it("takes a 409 for a host already where the action leads as done", async () => {
    mockup.intercept("POST", /ComputerSystem\.Reset$/, async () => {
      await mockup.service.merge(SYSTEM, { PowerState: "Off" });
      return idracError(409, "Base.1.12.ResourceInStandby", "The server is already powered off.");
    });
    await expect(mockup.driver.power("ForceOff")).resolves.toBeUndefined();
    expect(await mockup.driver.powerState()).toBe("Off");
  });

  it("passes any other 409 on with the BMC's words", async () => {
    mockup.intercept("POST", /ComputerSystem\.Reset$/, () =>
      idracError(409, "IDRAC.2.8.RAC0508", "An unexpected error occurred."),
    );
    await expect(mockup.driver.power("ForceOff")).rejects.toMatchObject({
      code: "redfish_http_error",
      details: { httpStatus: 409, messageIds: ["IDRAC.2.8.RAC0508"] },
    });
    expect(await mockup.driver.powerState()).toBe("On");
  });
});

describe("AC power cycle", () => {
  it("drops pending changes, stages PowerCycleRequest and restarts the host, which consumes it", async () => {
    await mockup.stageBios({ MemTest: "Enabled" });
    await mockup.driver.power("ACPowercycle");
    expect(
      mockup.takeWrites().map(({ method, path, body }) => `${method} ${path} ${JSON.stringify(body)}`),
    ).toEqual([
      `POST ${BIOS_SETTINGS}/Actions/Oem/DellManager.ClearPending {}`,
      `PATCH ${BIOS_SETTINGS} {"@Redfish.SettingsApplyTime":{"ApplyTime":"OnReset"},"Attributes":{"PowerCycleRequest":"FullPowerCycle"}}`,
      `POST ${RESET} {"ResetType":"GracefulRestart"}`,
    ]);
    expect(await mockup.attributes(BIOS)).toMatchObject({ PowerCycleRequest: "None", MemTest: "Disabled" });
    expect(await mockup.driver.pendingBios()).toEqual({});
  });

  it("powers on a host that is off instead of restarting it", async () => {
    await mockup.service.merge(SYSTEM, { PowerState: "Off" });
    await mockup.driver.power("ACPowercycle");
    expect(mockup.takeWrites().at(-1)).toMatchObject({ path: RESET, body: { ResetType: "On" } });
    expect(await mockup.driver.powerState()).toBe("On");
  });

  it("says when the BIOS keeps PowerCycleRequest read-only until a reboot", async () => {
    mockup.intercept("PATCH", /Bios\/Settings$/, () =>
      idracError(400, "IDRAC.2.8.SYS410", "PowerCycleRequest is read-only because of a pending dependency."),
    );
    await expect(mockup.driver.power("ACPowercycle")).rejects.toMatchObject({
      code: "bmc_setting_read_only",
      message: expect.stringContaining("reboot the host once"),
    });
    expect(mockup.takeWrites().map((r) => r.path)).not.toContain(RESET);
  });

  it("is not supported by a BIOS without PowerCycleRequest", async () => {
    const bios = await mockup.service.read(BIOS);
    const { PowerCycleRequest: _none, ...attributes } = (bios?.Attributes ?? {}) as Record<string, string>;
    mockup.service.write(BIOS, { ...bios, Attributes: attributes });
    await expect(mockup.driver.power("ACPowercycle")).rejects.toMatchObject({ code: "not_supported" });
  });
});
