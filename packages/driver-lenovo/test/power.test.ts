import { isNotSupported } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, xccMockup } from "./support/lenovoMockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const RESET = `${SYSTEM}/Actions/ComputerSystem.Reset`;
const AC_CYCLE = `${SYSTEM}/Actions/Oem/LenovoComputerSystem.SystemReset`;

const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

function actions(): Array<[string, unknown]> {
  return xcc.writes.map((r) => [r.path, r.body]);
}

/** Makes the mockup an SR675 V3 OVX on the given UEFI and XCC versions. */
async function asOvx(uefi: string, bmc: string): Promise<void> {
  await xcc.service.merge(SYSTEM, { SKU: "7D9RCTOLWW", Model: "ThinkSystem SR675 V3" });
  await xcc.service.merge("/redfish/v1/UpdateService/FirmwareInventory/UEFI", { Version: `KAE120F-${uefi}` });
  await xcc.service.merge("/redfish/v1/Managers/1", { FirmwareVersion: `QGX340A ${bmc} 2025-03-01` });
}

describe("power on an XCC", () => {
  it("cycles AC power through the OEM SystemReset action and the host comes back on", async () => {
    const driver = xcc.createDriver();
    await driver.power("ForceOff");
    expect(await driver.powerState()).toBe("Off");
    await driver.power("ACPowercycle");
    expect(actions()).toEqual([
      [RESET, { ResetType: "ForceOff" }],
      [AC_CYCLE, { ResetType: "ACPowerCycle" }],
    ]);
    expect(await driver.powerState()).toBe("On");
  });

  it("applies staged BIOS settings after an AC power cycle too", async () => {
    const driver = xcc.createDriver();
    await driver.setBios({ Memory_PatrolScrub: "Disabled" });
    await driver.power("ACPowercycle");
    expect((await driver.bios()).Memory_PatrolScrub).toBe("Disabled");
  });

  it("does not pretend to cycle AC power when the system lacks the OEM action", async () => {
    const system = (await xcc.service.read(SYSTEM)) ?? {};
    xcc.service.write(SYSTEM, { ...system, Actions: { "#ComputerSystem.Reset": { target: RESET } } });
    const error = await xcc
      .createDriver()
      .power("ACPowercycle")
      .catch((e: unknown) => e);
    expect(isNotSupported(error)).toBe(true);
    expect(xcc.writes).toEqual([]);
  });

  it("sends a plain ForceRestart everywhere but on the affected SR675 V3 OVX firmware", async () => {
    const driver = xcc.createDriver();
    await driver.power("ForceRestart");
    await asOvx("7.20", "9.10");
    await driver.power("ForceRestart");
    expect(actions()).toEqual([
      [RESET, { ResetType: "ForceRestart" }],
      [RESET, { ResetType: "ForceRestart" }],
    ]);
    expect(driver.pauses).toEqual([]);
  });

  it("restarts an SR675 V3 OVX on UEFI 7.10 / XCC 9.10 as ForceOff, a 10 s pause, then On", async () => {
    await asOvx("7.10", "9.10");
    const driver = xcc.createDriver();
    await driver.power("ForceRestart");
    expect(actions()).toEqual([
      [RESET, { ResetType: "ForceOff" }],
      [RESET, { ResetType: "On" }],
    ]);
    expect(driver.pauses).toEqual([10_000]);
    expect(await driver.powerState()).toBe("On");
    // Already off: just power on.
    await driver.power("ForceOff");
    xcc.clearWrites();
    await driver.power("ForceRestart");
    expect(actions()).toEqual([[RESET, { ResetType: "On" }]]);
    expect(driver.pauses).toEqual([10_000]);
  });

  it("has no PowerCycle reset on this firmware and says so", async () => {
    const error = await xcc
      .createDriver()
      .power("PowerCycle")
      .catch((e: unknown) => e);
    expect(isNotSupported(error)).toBe(true);
  });
});
