import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hpeMockup, MOCKUPS } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const RESET = `${SYSTEM}/Actions/ComputerSystem.Reset`;
const SYSTEM_RESET = `${SYSTEM}/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset`;

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

describe("power", () => {
  it("sends ForceRestart as GracefulRestart, iLO's warm reset", async () => {
    await bmc.driver.power("ForceRestart");
    expect(bmc.takeWrites()).toEqual([
      { method: "POST", path: RESET, body: { ResetType: "GracefulRestart" } },
    ]);
    expect(await bmc.driver.powerState()).toBe("On");
  });

  it("passes the other actions through and does nothing when already in the state asked for", async () => {
    await bmc.driver.power("On");
    await bmc.driver.power("GracefulShutdown");
    await bmc.driver.power("ForceOff");
    expect(bmc.takeWrites()).toEqual([
      { method: "POST", path: RESET, body: { ResetType: "GracefulShutdown" } },
    ]);
    expect(await bmc.driver.powerState()).toBe("Off");
  });

  it("AC power cycles with ForceOff, then iLO's SystemReset AuxCycle (only the latter when off)", async () => {
    await bmc.driver.power("ACPowercycle");
    expect(bmc.takeWrites()).toEqual([
      { method: "POST", path: RESET, body: { ResetType: "ForceOff" } },
      { method: "POST", path: SYSTEM_RESET, body: { ResetType: "AuxCycle" } },
    ]);
    expect(await bmc.driver.powerState()).toBe("Off");
    await bmc.driver.power("ACPowercycle");
    expect(bmc.takeWrites()).toEqual([
      { method: "POST", path: SYSTEM_RESET, body: { ResetType: "AuxCycle" } },
    ]);
  });

  it("refuses an AC power cycle when iLO does not offer AuxCycle", async () => {
    await bmc.server.service.merge(SYSTEM, {
      Oem: {
        Hpe: {
          Actions: {
            "#HpeComputerSystemExt.SystemReset": {
              "ResetType@Redfish.AllowableValues": ["ColdBoot"],
              target: SYSTEM_RESET,
            },
          },
        },
      },
    });
    await expect(bmc.driver.power("ACPowercycle")).rejects.toMatchObject({
      code: "not_supported",
      message: "power ACPowercycle is not supported: iLO allows only ColdBoot for SystemReset",
    });
    expect(bmc.takeWrites()).toEqual([]);
  });

  it("resets iLO itself with Manager.Reset GracefulRestart", async () => {
    await bmc.driver.bmcReset();
    expect(bmc.takeWrites()).toEqual([
      {
        method: "POST",
        path: "/redfish/v1/Managers/1/Actions/Manager.Reset",
        body: { ResetType: "GracefulRestart" },
      },
    ]);
  });

  it("surfaces iLO's 409 to a reset as a typed, retryable conflict", async () => {
    bmc.server.addFault({ path: RESET, method: "POST", status: 409, count: 1 });
    await expect(bmc.driver.power("GracefulShutdown")).rejects.toMatchObject({
      code: "redfish_http_error",
      httpStatus: 409,
      status: "ABORTED",
    });
    bmc.server.clearFaults();
    expect(await bmc.driver.powerState()).toBe("On");
  });
});
