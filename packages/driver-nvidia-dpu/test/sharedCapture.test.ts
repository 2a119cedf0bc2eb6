import type { AccountInfo, BootOptionInfo, ExplorationReport } from "@racksmith/core";
import {
  conformanceFailures,
  conformanceStatuses,
  presentSharedVendors,
  runConformance,
  sharedMockup,
  useDriverMockup,
} from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nvidiaDpuDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { bluefieldMockup } from "./support/bmc.js";
import { cliJson } from "./support/cli.js";
import { EXPECTED_STATUSES } from "./support/conformanceExpectations.js";

// The real BlueField-3 capture next to the project (BMC BF-24.10-10); skipped with a printed notice when absent.
const present = presentSharedVendors("the nvidia-dpu driver on the real BlueField capture", ["nvidia_dpu"]);

describe("the real BlueField capture", () => {
  it.skipIf(present.length === 0)("is present in ../shared/mockups", () => {
    expect(sharedMockup("nvidia_dpu")).toBeDefined();
  });
});

describe.each(present)("the %s capture", (vendor) => {
  const root = sharedMockup(vendor) ?? "";
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, bluefieldMockup(root));

  it("passes the conformance suite (its SEL and event log were not captured)", async () => {
    const report = await runConformance({
      ...conformance["nvidia-dpu"],
      driver: nvidiaDpuDriver,
      mockup: root,
    });
    expect(conformanceFailures(report)).toEqual([]);
    expect(conformanceStatuses(report)).toEqual({
      ...EXPECTED_STATUSES,
      systemEventLog: "not_supported",
      bmcEventLog: "not_supported",
    });
  });

  it("acceptance 1: the CLI detects nvidia-dpu, scoring the standard driver lower", async () => {
    const detected = await cliJson<{ driver: string; candidates: Array<{ name: string; score: number }> }>(
      bmc.redfishArgs("detect"),
    );
    const scoreOf = (name: string) => detected.candidates.find((c) => c.name === name)?.score ?? -1;
    expect(detected.driver).toBe("nvidia-dpu");
    expect(scoreOf("redfish-standard")).toBeLessThan(scoreOf("nvidia-dpu"));
  });

  it("acceptance 2: accounts, unique manager and system MACs, power On (drives and PCIe: none listed)", async () => {
    const accounts = await cliJson<AccountInfo[]>(bmc.redfishArgs("accounts"));
    expect(accounts.map((a) => a.userName).sort()).toEqual(["NvBluefieldUefi0", "NvBluefieldUefi1", "root"]);
    const report = await cliJson<ExplorationReport>(bmc.redfishArgs("explore"));
    const macs = [...report.managers, ...report.systems].flatMap((owner) =>
      owner.ethernetInterfaces.flatMap((i) => (i.mac ? [i.mac] : [])),
    );
    expect(report.managers[0]?.ethernetInterfaces.some((i) => i.mac)).toBe(true);
    expect(report.systems[0]?.ethernetInterfaces.some((i) => i.mac)).toBe(true);
    expect(new Set(macs).size).toBe(macs.length);
    expect(await cliJson(bmc.redfishArgs("power-state"))).toEqual({ powerState: "On" });
    expect(await cliJson(bmc.redfishArgs("drives"))).toEqual([]);
    expect(report.systems[0]?.pcieDevices).toEqual([]);
    expect(report.managers[0]?.firmwareVersion).toBe("BF-24.10-10");
  });

  it("acceptance 3 (DPU): NIC mode, base MAC, Card1 serial equal to the system serial, part number", async () => {
    const report = await cliJson<ExplorationReport>(bmc.redfishArgs("explore"));
    const card = report.chassis.find((c) => c.id === "Card1");
    expect(report.driver.name).toBe("nvidia-dpu");
    expect(report.systems[0]).toMatchObject({ nicMode: "dpu", baseMac: "5C:25:73:08:F3:52" });
    expect(card?.serialNumber).toBe("MT2423600ANG");
    expect(report.systems[0]?.serialNumber).toBe(card?.serialNumber);
    expect(card?.partNumber).toBe("900-9D3B6-00CV-AA0");
  });

  it("acceptance 3 (DPU): the boot order has several entries and is reordered, DPU-first by MAC", async () => {
    const options = await cliJson<BootOptionInfo[]>(bmc.redfishArgs("boot-options"));
    expect(options.length).toBeGreaterThan(1);
    await cliJson(bmc.redfishArgs("set-boot-order-dpu-first", "--mac", "5C:25:73:08:F3:62"));
    await cliJson(bmc.redfishArgs("power", "ForceRestart"));
    const after = await cliJson<BootOptionInfo[]>(bmc.redfishArgs("boot-options"));
    expect(after[0]?.displayName).toBe("UEFI HTTPv4 (MAC:5C257308F362)");
    await cliJson(bmc.redfishArgs("boot-first", "hdd"));
    await cliJson(bmc.redfishArgs("power", "ForceRestart"));
    expect((await cliJson<BootOptionInfo[]>(bmc.redfishArgs("boot-options")))[0]?.displayName).toBe(
      "UEFI Non-Block Boot Device",
    );
  });
});
