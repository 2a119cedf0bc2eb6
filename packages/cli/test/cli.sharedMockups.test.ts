import type { ExplorationReport } from "@racksmith/core";
import { MockupServer, presentSharedVendors, redfishCliArgs, sharedMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/runCliForTest.js";

// Acceptance: every real capture explores through the CLI with RedfishStandard alone.
const EXPECTED_VENDOR: Record<string, string> = {
  dell: "Dell",
  hpe: "HPE",
  lenovo: "Lenovo",
  supermicro: "Supermicro",
  nvidia_dpu: "Nvidia",
};
// PCIe devices in each capture (chassis whose Id is the system's, else the first with a collection). The
// BlueField capture's PCIe collections are empty, so its report rightly lists none.
const PCIE_DEVICES: Record<string, number> = { dell: 13, hpe: 6, lenovo: 16, supermicro: 26, nvidia_dpu: 0 };
const present = presentSharedVendors("exploring the real vendor captures through the CLI");

describe("real vendor captures", () => {
  it.skipIf(present.length === 0)("are present in ../shared/mockups", () => {
    expect(present.length).toBeGreaterThan(0);
  });
});

describe.each(present)("racksmith redfish explore on the %s capture", (vendor) => {
  let server: MockupServer;
  let report: ExplorationReport;
  let stderr: string;

  beforeAll(async () => {
    server = await MockupServer.start({ root: sharedMockup(vendor) ?? "", auth: "basic" });
    const run = await cli(redfishCliArgs({ url: server.url }, "explore", "--json"));
    stderr = run.stderr;
    expect(run.code, run.stderr).toBe(0);
    report = JSON.parse(run.stdout) as ExplorationReport;
  }, 120_000);
  afterAll(() => server?.stop());

  it("names the vendor and uses only RedfishStandard", () => {
    expect(stderr).toBe("");
    expect(report.vendor).toBe(EXPECTED_VENDOR[vendor]);
    expect(report.driver).toEqual({ name: "redfish-standard", pinned: false });
  });

  it("has a system serial, manager MACs and chassis", () => {
    expect(report.systems[0]?.serialNumber).toMatch(/\S/);
    expect(report.managers.flatMap((m) => m.ethernetInterfaces).some((i) => i.mac)).toBe(true);
    expect(report.chassis.length).toBeGreaterThan(0);
  });

  it("has firmware inventory and every PCIe device of the capture", () => {
    expect(report.firmware.length).toBeGreaterThan(0);
    expect(report.firmware.every((f) => f.id)).toBe(true);
    expect(report.systems.flatMap((s) => s.pcieDevices)).toHaveLength(PCIE_DEVICES[vendor] ?? -1);
  });
});
