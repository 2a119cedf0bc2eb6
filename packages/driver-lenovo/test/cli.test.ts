import { join } from "node:path";
import type {
  AccountInfo,
  BiosAttributes,
  DriveInfo,
  ExplorationReport,
  PcieDeviceInfo,
  TriStateStatus,
} from "@racksmith/core";
import {
  type ConformanceReport,
  presentSharedVendors,
  reportMacs,
  sharedMockup,
  useDriverMockup,
} from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PACKAGE_DIR, xccMockup } from "./support/lenovoMockups.js";
import { cli, cliJson } from "./support/runCli.js";

const CONFIG = join(PACKAGE_DIR, "test", "fixtures", "racksmith.yaml");
const shared = presentSharedVendors("the Lenovo acceptance checks on the real capture", ["lenovo"]);

describe("racksmith driver test @racksmith/driver-lenovo (acceptance 4)", () => {
  it.each(["thinksystem-sr670-v2", "thinksystem-sr675-v3"])("passes on mockups/%s", async (model) => {
    const report = await cliJson<ConformanceReport>(
      ["driver", "test", "@racksmith/driver-lenovo", "--mockup", `mockups/${model}`],
      PACKAGE_DIR,
    );
    expect(report).toMatchObject({ driver: "lenovo", passed: true });
    expect(report.results.filter((r) => r.status === "pass").length).toBeGreaterThan(20);
  });

  it("refuses a mistyped key in drivers.lenovo, naming it", async () => {
    const run = await cli(
      ["drivers", "list", "--config", join(PACKAGE_DIR, "test", "fixtures", "bad-settings.yaml")],
      PACKAGE_DIR,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/drivers\.lenovo\.biosProfils/);
  });
});

describe("the real SR670 V2 capture", () => {
  it.skipIf(shared.length === 0)("is present in ../shared/mockups/lenovo", () => {
    expect(sharedMockup("lenovo")).toBeDefined();
  });
});

describe.each(shared)("racksmith redfish on the %s capture (acceptance 1-3)", (vendor) => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    xccMockup(sharedMockup(vendor) ?? "", { cliConfig: CONFIG }),
  );
  const redfish = <T>(...operation: string[]): Promise<T> =>
    cliJson<T>(bmc.redfishArgs(...operation), PACKAGE_DIR);

  it("detects lenovo, with the standard driver's score below it", async () => {
    const detected = await redfish<{ driver: string; candidates: Array<{ name: string; score: number }> }>(
      "detect",
    );
    expect(detected.driver).toBe("lenovo");
    const score = (name: string) => detected.candidates.find((c) => c.name === name)?.score ?? -1;
    expect(score("lenovo")).toBe(95);
    expect(score("redfish-standard")).toBeLessThan(score("lenovo"));
  });

  it("counts what the capture holds: 1 account, 4 drives, 16 PCIe devices with their state", async () => {
    expect(await redfish<AccountInfo[]>("accounts")).toHaveLength(1);
    const drives = await redfish<DriveInfo[]>("drives");
    expect(drives).toHaveLength(4);
    expect(drives.every((d) => d.protocol === "NVMe")).toBe(true);
    const pcie = await redfish<PcieDeviceInfo[]>("pcie-devices");
    expect(pcie).toHaveLength(16);
    expect(pcie.every((d) => d.state === "Enabled")).toBe(true);
  });

  it("has manager and system MACs, all unique, the host on, and a full BIOS", async () => {
    const report = await redfish<ExplorationReport>("explore");
    expect(report.driver.name).toBe("lenovo");
    const { managers, systems, all } = reportMacs(report);
    expect(managers.filter(Boolean).length).toBeGreaterThan(0);
    expect(systems.filter(Boolean).length).toBeGreaterThan(0);
    const macs = all.filter(Boolean);
    expect(new Set(macs).size).toBe(macs.length);
    expect(report.managers[0]?.firmwareVersion).toBe("TGBT42S 2.83 2023-07-05");
    expect(await redfish<{ powerState: string }>("power-state")).toEqual({ powerState: "On" });
    expect(Object.keys(await redfish<BiosAttributes>("bios")).length).toBeGreaterThan(8);
  });

  it("runs the lifecycle flow: power, unlock, serial console, TPM clear, boot, lock", async () => {
    for (const action of ["GracefulShutdown", "ForceOff", "On"]) await redfish("power", action);
    expect(await redfish<{ powerState: string }>("power-state")).toEqual({ powerState: "On" });

    await redfish("lockdown", "disable");
    expect((await redfish<TriStateStatus>("lockdown-status")).state).toBe("disabled");

    await redfish("serial-console-setup");
    expect((await redfish<TriStateStatus>("serial-console-status")).state).toBe("enabled");

    await redfish("tpm-clear");
    expect(await redfish<BiosAttributes>("pending-bios")).toEqual({
      TrustedComputingGroup_DeviceOperation: "Clear",
    });

    await redfish("boot-once", "pxe");
    await redfish("boot-first", "hdd");
    const system = await bmc.service.read("/redfish/v1/Systems/1");
    expect(system?.Boot).toMatchObject({
      BootSourceOverrideEnabled: "Once",
      BootSourceOverrideTarget: "Pxe",
    });
    expect((await bmc.service.read("/redfish/v1/Systems/1/Pending"))?.Boot).toEqual({
      BootOrder: ["Boot0002", "Boot0003"],
    });

    await redfish("lockdown", "enable");
    expect(await redfish<TriStateStatus>("lockdown-status")).toEqual({
      state: "enabled",
      message:
        "enabled: IPMI over KCS off, firmware rollback off, host USB LAN off, front USB port host-only",
    });
  });

  it("puts the capture's BlueField-2 HTTP entry first by MAC", async () => {
    await redfish("set-boot-order-dpu-first", "--mac", "a0:88:c2:c3:6f:6e");
    const status = await redfish<{ done: boolean; diffs: Array<{ key: string }> }>(
      "machine-setup-status",
      "--boot-mac",
      "A0:88:C2:C3:6F:6E",
    );
    expect(status.diffs.map((d) => d.key)).not.toContain("BootOrder.NetworkBootOrder.BootOrderNext[0]");
    // The operator's profile for this model (from the config) is part of the expected settings.
    expect(status.diffs).toContainEqual({
      key: "OperatingModes_ChooseOperatingMode",
      expected: "MaximumPerformance",
      actual: "Efficiency_FavorPerformance",
    });
  });
});
