import type { AccountInfo, BootOptionInfo, ExplorationReport } from "@racksmith/core";
import { MockupServer, presentSharedVendors, runConformance, sharedMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nvidiaDpuDriver } from "../src/index.js";
import { BLUEFIELD_BEHAVIORS, conformance } from "../src/testing/index.js";
import { CREDENTIALS } from "./support/bmc.js";
import { cliJson, redfishArgs } from "./support/cli.js";
import { EXPECTED_STATUSES, failuresOf, statusesOf } from "./support/conformanceExpectations.js";

// The real BlueField-3 capture next to the project (BMC BF-24.10-10); skipped with a printed notice when absent.
const present = presentSharedVendors("the nvidia-dpu driver on the real BlueField capture", ["nvidia_dpu"]);

describe("the real BlueField capture", () => {
  it.skipIf(present.length === 0)("is present in ../shared/mockups", () => {
    expect(sharedMockup("nvidia_dpu")).toBeDefined();
  });
});

describe.each(present)("the %s capture", (vendor) => {
  const root = sharedMockup(vendor) ?? "";
  let server: MockupServer;
  const redfish = (...args: string[]) => [...redfishArgs(server.url, CREDENTIALS.password), ...args];

  beforeAll(async () => {
    server = await MockupServer.start({
      root,
      auth: "basic",
      credentials: CREDENTIALS,
      behaviors: BLUEFIELD_BEHAVIORS,
    });
  });
  afterAll(() => server?.stop());

  it("passes the conformance suite (its SEL and event log were not captured)", async () => {
    const report = await runConformance({
      ...conformance["nvidia-dpu"],
      driver: nvidiaDpuDriver,
      mockup: root,
    });
    expect(failuresOf(report)).toEqual([]);
    expect(statusesOf(report)).toEqual({
      ...EXPECTED_STATUSES,
      systemEventLog: "not_supported",
      bmcEventLog: "not_supported",
    });
  });

  it("acceptance 1: the CLI detects nvidia-dpu, scoring the standard driver lower", async () => {
    const detected = await cliJson<{ driver: string; candidates: Array<{ name: string; score: number }> }>(
      redfish("detect"),
    );
    const scoreOf = (name: string) => detected.candidates.find((c) => c.name === name)?.score ?? -1;
    expect(detected.driver).toBe("nvidia-dpu");
    expect(scoreOf("redfish-standard")).toBeLessThan(scoreOf("nvidia-dpu"));
  });

  it("acceptance 2: accounts, unique manager and system MACs, power On (drives and PCIe: none listed)", async () => {
    const accounts = await cliJson<AccountInfo[]>(redfish("accounts"));
    expect(accounts.map((a) => a.userName).sort()).toEqual(["NvBluefieldUefi0", "NvBluefieldUefi1", "root"]);
    const report = await cliJson<ExplorationReport>(redfish("explore"));
    const macs = [...report.managers, ...report.systems].flatMap((owner) =>
      owner.ethernetInterfaces.flatMap((i) => (i.mac ? [i.mac] : [])),
    );
    expect(report.managers[0]?.ethernetInterfaces.some((i) => i.mac)).toBe(true);
    expect(report.systems[0]?.ethernetInterfaces.some((i) => i.mac)).toBe(true);
    expect(new Set(macs).size).toBe(macs.length);
    expect(await cliJson(redfish("power-state"))).toEqual({ powerState: "On" });
    expect(await cliJson(redfish("drives"))).toEqual([]);
    expect(report.systems[0]?.pcieDevices).toEqual([]);
    expect(report.managers[0]?.firmwareVersion).toBe("BF-24.10-10");
  });

  it("acceptance 3 (DPU): NIC mode, base MAC, Card1 serial equal to the system serial, part number", async () => {
    const report = await cliJson<ExplorationReport>(redfish("explore"));
    const card = report.chassis.find((c) => c.id === "Card1");
    expect(report.driver.name).toBe("nvidia-dpu");
    expect(report.systems[0]).toMatchObject({ nicMode: "dpu", baseMac: "5C:25:73:08:F3:52" });
    expect(card?.serialNumber).toBe("MT2423600ANG");
    expect(report.systems[0]?.serialNumber).toBe(card?.serialNumber);
    expect(card?.partNumber).toBe("900-9D3B6-00CV-AA0");
  });

  it("acceptance 3 (DPU): the boot order has several entries and is reordered, DPU-first by MAC", async () => {
    const options = await cliJson<BootOptionInfo[]>(redfish("boot-options"));
    expect(options.length).toBeGreaterThan(1);
    await cliJson(redfish("set-boot-order-dpu-first", "--mac", "5C:25:73:08:F3:62"));
    await cliJson(redfish("power", "ForceRestart"));
    const after = await cliJson<BootOptionInfo[]>(redfish("boot-options"));
    expect(after[0]?.displayName).toBe("UEFI HTTPv4 (MAC:5C257308F362)");
    await cliJson(redfish("boot-first", "hdd"));
    await cliJson(redfish("power", "ForceRestart"));
    expect((await cliJson<BootOptionInfo[]>(redfish("boot-options")))[0]?.displayName).toBe(
      "UEFI Non-Block Boot Device",
    );
  });
});
