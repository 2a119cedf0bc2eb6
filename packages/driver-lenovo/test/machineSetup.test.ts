import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, SERIAL_CONSOLE, xccMockup } from "./support/lenovoMockups.js";

const DPU_MAC = "B8:3F:D2:4A:10:02";
const DPU_ENTRY = "UEFI:   SLOT15 (65/0/0) HTTP IPv4  Mellanox Network Adapter - B8:3F:D2:4A:10:02";
const NETWORK_ORDER = "/redfish/v1/Systems/1/Oem/Lenovo/BootSettings/BootOrder.NetworkBootOrder";

/** The attributes libredfish's Lenovo machine setup writes, in its order (SR670 V2: Intel, legacy BIOS). */
const SR670_STAGED = {
  ...SERIAL_CONSOLE,
  TrustedComputingGroup_DeviceOperation: "Clear",
  Processors_IntelVirtualizationTechnology: "Enabled",
  LegacyBIOS_NonOnboardPXE: "Disabled",
  LegacyBIOS_LegacyBIOS: "Disabled",
  BootModes_SystemBootMode: "UEFIMode",
  NetworkStackSettings_IPv4HTTPSupport: "Enabled",
  NetworkStackSettings_IPv4PXESupport: "Disabled",
  NetworkStackSettings_IPv6PXESupport: "Disabled",
  BootModes_InfiniteBootRetry: "Enabled",
};

describe("machine setup on the SR670 V2 (Intel, XCC)", () => {
  const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

  it("stages every setting in one Bios/Pending write, then puts the DPU's HTTP entry and the network group first", async () => {
    const etags = await Promise.all(
      ["/redfish/v1/Systems/1/Bios/Pending", "/redfish/v1/Systems/1/Pending"].map(
        async (path) => (await xcc.client.getResponse(path)).etag,
      ),
    );
    const result = await xcc.createDriver().machineSetup({ bootInterfaceMac: DPU_MAC.toLowerCase() });
    expect(result).toEqual({ rebootRequired: true });
    expect(xcc.writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "PATCH /redfish/v1/Systems/1/Bios/Pending",
      `PATCH ${NETWORK_ORDER}`,
      "PATCH /redfish/v1/Systems/1/Pending",
    ]);
    const [bios, network, order] = xcc.writes;
    expect(bios?.body).toEqual({ Attributes: SR670_STAGED });
    expect(Object.keys(bios?.body.Attributes ?? {})).toEqual(Object.keys(SR670_STAGED));
    expect(bios?.ifMatch).toBe(etags[0]);
    expect(network?.body.BootOrderNext).toEqual([
      DPU_ENTRY,
      "UEFI:   SLOT27 (4D/0/0) PXE IPv4  Broadcom 5719 1GbE RJ45 4-port OCP Ethernet Adapter",
      "UEFI:   SLOT15 (65/0/1) HTTP IPv4  Mellanox Network Adapter - B8:3F:D2:4A:10:03",
    ]);
    expect(order?.body).toEqual({ Boot: { BootOrder: ["Boot0003", "Boot0002"] } });
    expect(order?.ifMatch).toBe(etags[1]);
  });

  it("reports each setting still missing until the host reboots, then done", async () => {
    const driver = xcc.createDriver();
    const before = await driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC });
    expect(before.done).toBe(false);
    expect(before.diffs).toEqual([
      { key: "Processors_IntelVirtualizationTechnology", expected: "Enabled", actual: "Disabled" },
      { key: "LegacyBIOS_NonOnboardPXE", expected: "Disabled", actual: "Enabled" },
      { key: "NetworkStackSettings_IPv4HTTPSupport", expected: "Enabled", actual: "Disabled" },
      { key: "NetworkStackSettings_IPv4PXESupport", expected: "Disabled", actual: "Enabled" },
      { key: "BootModes_InfiniteBootRetry", expected: "Enabled", actual: "Disabled" },
      { key: "Boot.BootOrder[0]", expected: "Network", actual: "HardDisk" },
      {
        key: "BootOrder.NetworkBootOrder.BootOrderNext[0]",
        expected: `HTTP IPv4 boot from ${DPU_MAC}`,
        actual: "UEFI:   SLOT27 (4D/0/0) PXE IPv4  Broadcom 5719 1GbE RJ45 4-port OCP Ethernet Adapter",
      },
    ]);

    await driver.machineSetup({ bootInterfaceMac: DPU_MAC });
    const staged = await driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC });
    // The boot order is the next boot's (already staged); BIOS settings only count once applied.
    expect(staged.diffs.map((d) => d.key)).toEqual([
      "Processors_IntelVirtualizationTechnology",
      "LegacyBIOS_NonOnboardPXE",
      "NetworkStackSettings_IPv4HTTPSupport",
      "NetworkStackSettings_IPv4PXESupport",
      "BootModes_InfiniteBootRetry",
    ]);

    await driver.power("ForceRestart");
    expect(await driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC })).toEqual({ done: true, diffs: [] });
    // The TPM clear ran during POST and is not a lasting setting.
    expect((await driver.bios()).TrustedComputingGroup_DeviceOperation).toBe("None");
    expect(await driver.pendingBios()).toEqual({});
  });

  it("notices a setting changed back after setup", async () => {
    const driver = xcc.createDriver();
    await driver.machineSetup({ bootInterfaceMac: DPU_MAC });
    await driver.power("ForceRestart");
    await xcc.service.merge("/redfish/v1/Systems/1/Bios", {
      Attributes: { DevicesandIOPorts_ConsoleRedirection: "Disabled" },
    });
    expect((await driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC })).diffs).toEqual([
      { key: "DevicesandIOPorts_ConsoleRedirection", expected: "Enabled", actual: "Disabled" },
    ]);
  });

  it("without a boot MAC puts only the network group first", async () => {
    await xcc.createDriver().machineSetup({});
    expect(xcc.writesTo(NETWORK_ORDER)).toEqual([]);
    expect(xcc.writesTo("/Systems/1/Pending").map((r) => r.body)).toEqual([
      { Boot: { BootOrder: ["Boot0003", "Boot0002"] } },
    ]);
  });

  it("adds the operator's BIOS profile for this model from the driver settings", async () => {
    const settings = {
      biosProfile: "powerEfficiency",
      biosProfiles: {
        ThinkSystem_SR670_V2: {
          performance: { OperatingModes_ChooseOperatingMode: "MaximumPerformance" },
          powerEfficiency: {
            OperatingModes_ChooseOperatingMode: "Efficiency_FavorPower",
            Memory_PatrolScrub: "Disabled",
          },
        },
        "ThinkSystem SR675 V3": { powerEfficiency: { Processors_SMTMode: "Disabled" } },
      },
    };
    const driver = xcc.createDriver({ settings });
    await driver.machineSetup({});
    const staged = xcc.writesTo("/Bios/Pending")[0]?.body.Attributes as Record<string, unknown>;
    expect(staged).toMatchObject({
      OperatingModes_ChooseOperatingMode: "Efficiency_FavorPower",
      Memory_PatrolScrub: "Disabled",
    });
    expect(staged).not.toHaveProperty("Processors_SMTMode");
    expect((await driver.machineSetupStatus({})).diffs.map((d) => d.key)).toContain(
      "OperatingModes_ChooseOperatingMode",
    );
  });

  it("uses an explicit profile instead of the configured one", async () => {
    const settings = {
      biosProfiles: { "ThinkSystem SR670 V2": { performance: { Memory_PatrolScrub: "Disabled" } } },
    };
    await xcc.createDriver({ settings }).machineSetup({ biosProfile: { Power_PowerPerformanceBias: "OS" } });
    const staged = xcc.writesTo("/Bios/Pending")[0]?.body.Attributes as Record<string, unknown>;
    expect(staged.Power_PowerPerformanceBias).toBe("OS");
    expect(staged).not.toHaveProperty("Memory_PatrolScrub");
  });
});
