import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, memoryLogger, xccMockup } from "./support/lenovoMockups.js";

// What differs on an AMD, UEFI-only platform with XCC2 firmware; the driver must follow what the BMC reports.
const MANAGER = "/redfish/v1/Managers/1";
const SECURITY = "/redfish/v1/Managers/1/Oem/Lenovo/Security";
const TO_HOST = "/redfish/v1/Managers/1/EthernetInterfaces/ToHost";
const SYSTEM = "/redfish/v1/Systems/1";

const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr675v3));

describe("machine setup on the SR675 V3 (AMD, XCC2)", () => {
  it("enables SVM instead of VT-x and leaves out the legacy BIOS settings the platform does not have", async () => {
    const logger = memoryLogger();
    const driver = xcc.createDriver({ logger });
    await driver.machineSetup({ bootInterfaceMac: "5c:25:73:8e:41:a0" });
    const staged = xcc.writesTo("/Bios/Pending")[0]?.body.Attributes as Record<string, unknown>;
    expect(staged.Processors_SVMMode).toBe("Enabled");
    expect(staged).not.toHaveProperty("Processors_IntelVirtualizationTechnology");
    expect(Object.keys(staged).filter((key) => key.startsWith("LegacyBIOS_"))).toEqual([]);
    expect(logger.warnings).toEqual([
      {
        fields: {
          model: "ThinkSystem SR675 V3",
          skipped: ["LegacyBIOS_NonOnboardPXE", "LegacyBIOS_LegacyBIOS"],
        },
        message: "this XCC BIOS has no such attributes; machine setup leaves them out",
      },
    ]);
    expect(xcc.writesTo("NetworkBootOrder")[0]?.body.BootOrderNext).toEqual([
      "UEFI: SLOT1 (C1/0/0) HTTP IPv4  Nvidia Network Adapter - 5C:25:73:8E:41:A0",
      "UEFI: OCP (41/0/0) PXE IPv4  Intel(R) Ethernet Network Adapter E810-XXV-2 for OCP 3.0",
      "UEFI: SLOT1 (C1/0/1) HTTP IPv4  Nvidia Network Adapter - 5C:25:73:8E:41:A1",
    ]);
    await driver.power("ForceRestart");
    expect(await driver.machineSetupStatus({ bootInterfaceMac: "5C:25:73:8E:41:A0" })).toEqual({
      done: true,
      diffs: [],
    });
  });
});

describe("lockdown on the SR675 V3 (string KCSEnabled, USBManagementPortAssignment)", () => {
  it("sends KCSEnabled as the string this firmware reports and uses the renamed USB property", async () => {
    const driver = xcc.createDriver();
    await driver.setLockdown(true);
    expect(xcc.writes.map((r) => ({ path: r.path, body: r.body }))).toEqual([
      { path: MANAGER, body: { Oem: { Lenovo: { KCSEnabled: "Disabled" } } } },
      { path: SECURITY, body: { Configurator: { FWRollback: "Disabled" } } },
      { path: TO_HOST, body: { InterfaceEnabled: false } },
      {
        path: SYSTEM,
        body: {
          Oem: { Lenovo: { USBManagementPortAssignment: { FPMode: "Server", PortSwitchingTo: "Server" } } },
        },
      },
    ]);
    expect((await driver.lockdownStatus()).state).toBe("enabled");
    await driver.setLockdown(false);
    expect(xcc.writes[4]?.body).toEqual({ Oem: { Lenovo: { KCSEnabled: "Enabled" } } });
    expect((await driver.lockdownStatus()).state).toBe("disabled");
  });
});
