import { isNotSupported } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, type XccMockup, xccMockup } from "./support/lenovoMockups.js";

const MANAGER = "/redfish/v1/Managers/1";
const SECURITY = "/redfish/v1/Managers/1/Oem/Lenovo/Security";
const TO_HOST = "/redfish/v1/Managers/1/EthernetInterfaces/ToHost";
const SYSTEM = "/redfish/v1/Systems/1";

function writes(xcc: XccMockup) {
  return xcc.writes.map((r) => ({ path: r.path, body: r.body }));
}

describe("lockdown on the SR670 V2 (bool KCSEnabled, FrontPanelUSB)", () => {
  const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

  it("locks KCS, firmware rollback, the host USB LAN and the front USB port, in that order", async () => {
    const driver = xcc.createDriver();
    expect(await driver.lockdownStatus()).toEqual({
      state: "disabled",
      message:
        "disabled: IPMI over KCS off, firmware rollback off, host USB LAN off, front USB port host-only",
    });
    await driver.setLockdown(true);
    expect(writes(xcc)).toEqual([
      { path: MANAGER, body: { Oem: { Lenovo: { KCSEnabled: false } } } },
      { path: SECURITY, body: { Configurator: { FWRollback: "Disabled" } } },
      { path: TO_HOST, body: { InterfaceEnabled: false } },
      {
        path: SYSTEM,
        body: { Oem: { Lenovo: { FrontPanelUSB: { FPMode: "Server", PortSwitchingTo: "Server" } } } },
      },
    ]);
    expect(await driver.lockdownStatus()).toEqual({
      state: "enabled",
      message:
        "enabled: IPMI over KCS off, firmware rollback off, host USB LAN off, front USB port host-only",
    });
  });

  it("unlocks the same settings and reports disabled", async () => {
    const driver = xcc.createDriver();
    await driver.setLockdown(true);
    xcc.clearWrites();
    await driver.setLockdown(false);
    expect(writes(xcc)).toEqual([
      { path: MANAGER, body: { Oem: { Lenovo: { KCSEnabled: true } } } },
      { path: SECURITY, body: { Configurator: { FWRollback: "Enabled" } } },
      { path: TO_HOST, body: { InterfaceEnabled: true } },
      { path: SYSTEM, body: { Oem: { Lenovo: { FrontPanelUSB: { FPMode: "Shared" } } } } },
    ]);
    expect((await driver.lockdownStatus()).state).toBe("disabled");
  });

  it("reports partial, naming both sides, when only some settings are locked", async () => {
    await xcc.service.merge(MANAGER, { Oem: { Lenovo: { KCSEnabled: false } } });
    await xcc.service.merge(TO_HOST, { InterfaceEnabled: false });
    expect(await xcc.createDriver().lockdownStatus()).toEqual({
      state: "partial",
      message:
        "enabled: IPMI over KCS off, host USB LAN off; disabled: firmware rollback off, front USB port host-only",
    });
  });

  it("writes only what is not locked yet", async () => {
    await xcc.service.merge(MANAGER, { Oem: { Lenovo: { KCSEnabled: false } } });
    await xcc.service.merge(SECURITY, { Configurator: { FWRollback: "Disabled" } });
    await xcc.createDriver().setLockdown(true);
    expect(xcc.writes.map((r) => r.path)).toEqual([TO_HOST, SYSTEM]);
    xcc.clearWrites();
    await xcc.createDriver().setLockdown(true);
    expect(xcc.writes).toEqual([]);
  });

  it("skips settings this firmware does not have, and is not supported when it has none", async () => {
    xcc.service.remove(SECURITY);
    await xcc.createDriver().setLockdown(true);
    expect(xcc.writes.map((r) => r.path)).toEqual([MANAGER, TO_HOST, SYSTEM]);
    expect((await xcc.createDriver().lockdownStatus()).state).toBe("enabled");

    const { EthernetInterfaces: _links, ...manager } = (await xcc.service.read(MANAGER)) ?? {};
    xcc.service.write(MANAGER, { ...manager, Oem: {} });
    const system = (await xcc.service.read(SYSTEM)) ?? {};
    xcc.service.write(SYSTEM, { ...system, Oem: {} });
    const error = await xcc
      .createDriver()
      .lockdownStatus()
      .catch((e: unknown) => e);
    expect(isNotSupported(error)).toBe(true);
    expect(String(error)).toMatch(/KCSEnabled, FWRollback, ToHost, FrontPanelUSB/);
  });
});
