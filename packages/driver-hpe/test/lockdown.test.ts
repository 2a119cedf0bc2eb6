import type { Manager } from "@racksmith/core/redfish";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hasKcsSetting, iloFirmware } from "../src/ilo/index.js";
import { hpeMockup, MOCKUPS } from "./support/mockups.js";

const MANAGER = "/redfish/v1/Managers/1";
const PROTOCOL = `${MANAGER}/NetworkProtocol`;
const BIOS_SETTINGS = "/redfish/v1/Systems/1/Bios/settings/";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen11));

const lockWrites = (locked: boolean) => [
  { method: "PATCH", path: PROTOCOL, body: { Oem: { Hpe: { KcsEnabled: !locked } } } },
  {
    method: "PATCH",
    path: BIOS_SETTINGS,
    body: { Attributes: { UsbBoot: locked ? "Disabled" : "Enabled" } },
  },
  { method: "PATCH", path: MANAGER, body: { Oem: { Hpe: { VirtualNICEnabled: !locked } } } },
];

describe("lockdown on an iLO 6 v1.55 ProLiant DL380 Gen11", () => {
  it("starts unlocked and reads fully disabled", async () => {
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "disabled",
      message: "unlocked: UsbBoot=Enabled, VirtualNICEnabled=true, KcsEnabled=true",
    });
  });

  it("locks KCS, USB boot (staged) and the virtual NIC, in that order", async () => {
    await bmc.driver.setLockdown(true);
    expect(bmc.takeWrites()).toEqual(lockWrites(true));
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "locked: UsbBoot=Disabled (staged for next boot), VirtualNICEnabled=false, KcsEnabled=false",
    });
    await bmc.reboot();
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "locked: UsbBoot=Disabled, VirtualNICEnabled=false, KcsEnabled=false",
    });
  });

  it("unlocks all three again, so an unlocked iLO reads fully disabled", async () => {
    await bmc.driver.setLockdown(true);
    await bmc.reboot();
    bmc.takeWrites();
    await bmc.driver.setLockdown(false);
    expect(bmc.takeWrites()).toEqual(lockWrites(false));
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "disabled",
      message: "unlocked: UsbBoot=Enabled (staged for next boot), VirtualNICEnabled=true, KcsEnabled=true",
    });
  });

  it("reads partial, naming each side, when only some settings are locked", async () => {
    await bmc.server.service.merge(MANAGER, { Oem: { Hpe: { VirtualNICEnabled: false } } });
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "partial",
      message: "locked: VirtualNICEnabled=false; unlocked: UsbBoot=Enabled, KcsEnabled=true",
    });
  });

  it.each([
    ["iLO 6 v1.30", "iLO 6"],
    ["iLO 5 v2.72", "iLO 5"],
  ])("leaves KCS alone on %s, which has no such setting", async (firmware, model) => {
    await bmc.server.service.merge(MANAGER, { FirmwareVersion: firmware, Model: model });
    await bmc.driver.setLockdown(true);
    expect(bmc.takeWrites()).toEqual(lockWrites(true).slice(1));
    expect((await bmc.driver.lockdownStatus()).message).toBe(
      "locked: UsbBoot=Disabled (staged for next boot), VirtualNICEnabled=false",
    );
  });

  it("skips KCS when a new enough iLO does not report it", async () => {
    const protocol = await bmc.read(PROTOCOL);
    bmc.server.service.write(PROTOCOL, { ...protocol, Oem: { Hpe: {} } });
    await bmc.driver.setLockdown(true);
    expect(bmc.takeWrites().map((write) => write.path)).toEqual([BIOS_SETTINGS, MANAGER]);
  });

  it("surfaces a 409 from iLO with the step that failed", async () => {
    bmc.server.addFault({ path: MANAGER, method: "PATCH", status: 409, count: 1 });
    await expect(bmc.driver.setLockdown(true)).rejects.toMatchObject({
      code: "redfish_http_error",
      httpStatus: 409,
      status: "ABORTED",
      path: MANAGER,
    });
    bmc.server.clearFaults();
  });
});

describe("the KCS firmware guard", () => {
  const manager = (fields: Partial<Manager>): Manager => fields as Manager;

  it.each([
    ["iLO 6 v1.40", true],
    ["iLO 6 v1.55", true],
    ["iLO 6 v2.10", true],
    ["iLO 6 v1.39", false],
    ["iLO 6 v1.05", false],
    ["iLO 5 v2.72", false],
    ["iLO 7 v1.10", true],
    ["1.55", false],
  ])("%s → %s", (firmware, expected) => {
    expect(hasKcsSetting(iloFirmware(manager({ FirmwareVersion: firmware })))).toBe(expected);
  });

  it("falls back to the model and iLO's own version fields", () => {
    const fromOem = manager({
      Model: "iLO 6",
      Oem: { Hpe: { Firmware: { Current: { MajorVersion: 1, MinorVersion: 50 } } } },
    });
    expect(iloFirmware(fromOem)).toEqual({ generation: 6, major: 1, minor: 50 });
    expect(iloFirmware(manager({ Model: "iLO 6" }))).toBeUndefined();
  });
});
