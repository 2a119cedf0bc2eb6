import type { DriveInfo, ExplorationReport, PcieDeviceInfo } from "@racksmith/core";
import {
  MockupServer,
  presentSharedVendors,
  reportMacs,
  runConformance,
  sharedMockup,
} from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dellDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { cliJson, redfishArgs } from "./support/cli.js";

// Issue 3 acceptance 1–3 on the real iDRAC capture (PowerEdge R750, iDRAC 6.00.30.00, BIOS 1.8.2), served as
// `racksmith mockup serve` serves it: the plain testkit server, no Dell behaviors.
const captures = presentSharedVendors("the Dell driver's acceptance checks on the real iDRAC capture", [
  "dell",
]);

describe("the real iDRAC capture", () => {
  it.skipIf(captures.length === 0)("is present in ../shared/mockups", () => {
    expect(sharedMockup("dell")).toMatch(/dell$/);
  });
});

interface Detection {
  driver: string;
  candidates: Array<{ name: string; score: number }>;
}

describe.each(captures)("racksmith redfish on the %s capture with the Dell driver", (vendor) => {
  let server: MockupServer;
  const run = (...operation: string[]) => cliJson(redfishArgs(server.url, ...operation));

  beforeAll(async () => {
    server = await MockupServer.start({ root: sharedMockup(vendor) ?? "", auth: "basic" });
  });
  afterAll(() => server?.stop());

  it("detect picks dell, and the standard driver scores below it", async () => {
    const detection = (await run("detect")) as Detection;
    expect(detection.driver).toBe("dell");
    const score = (name: string) => detection.candidates.find((c) => c.name === name)?.score ?? -1;
    expect(score("dell")).toBe(100);
    expect(score("redfish-standard")).toBeLessThan(score("dell"));
  });

  it("lists the capture's 16 accounts, 3 drives and 13 PCIe devices with their state", async () => {
    expect(await run("accounts")).toHaveLength(16);
    const drives = (await run("drives")) as DriveInfo[];
    expect(drives.map((d) => d.id)).toHaveLength(3);
    const devices = (await run("pcie-devices")) as PcieDeviceInfo[];
    expect(devices).toHaveLength(13);
    expect(devices.every((d) => d.state === "Enabled")).toBe(true);
  });

  it("reports manager and system MACs (unique), power On and the BIOS", async () => {
    const report = (await run("explore")) as ExplorationReport;
    expect(report.driver.name).toBe("dell");
    const { managers, systems, all } = reportMacs(report);
    expect(managers.filter(Boolean)).toEqual(["B0:7B:25:D6:51:82"]);
    expect(systems.filter(Boolean).length).toBeGreaterThan(0);
    const macs = all.filter(Boolean);
    expect(new Set(macs).size).toBe(macs.length);
    expect(await run("power-state")).toEqual({ powerState: "On" });
    expect(Object.keys((await run("bios")) as object).length).toBeGreaterThan(8);
  });

  it("runs the lifecycle flow: power, unlock, serial console, TPM clear, boot once/first, lock", async () => {
    for (const action of ["GracefulShutdown", "ForceOff", "On"]) await run("power", action);
    expect(await run("power-state")).toEqual({ powerState: "On" });
    await run("lockdown", "disable");
    expect(await run("lockdown-status")).toMatchObject({ state: "disabled" });
    await run("serial-console-setup");
    expect(await run("serial-console-status")).toMatchObject({ state: "enabled" });
    await run("tpm-clear");
    expect(await run("pending-bios")).toEqual({ Tpm2Hierarchy: "Clear" });
    await run("boot-once", "pxe");
    await run("boot-first", "hdd");
    await run("lockdown", "enable");
    expect(await run("lockdown-status")).toMatchObject({ state: "enabled" });
    const attributes = (
      await server.service.read(
        "/redfish/v1/Managers/iDRAC.Embedded.1/Oem/Dell/DellAttributes/iDRAC.Embedded.1",
      )
    )?.Attributes;
    expect(attributes).toMatchObject({
      "Lockdown.1.SystemLockdown": "Enabled",
      "Racadm.1.Enable": "Disabled",
      "ServerBoot.1.FirstBootDevice": "PXE",
      "ServerBoot.1.BootOnce": "Disabled",
    });
  });

  it("passes the conformance suite with the Dell mockup behaviors", async () => {
    const report = await runConformance({
      ...conformance.dell,
      driver: dellDriver,
      mockup: sharedMockup(vendor) ?? "",
    });
    expect(report.results.filter((r) => r.status === "fail")).toEqual([]);
    expect(report.results.filter((r) => r.status === "not_supported").map((r) => r.capability)).toEqual([
      "dpu",
    ]);
  });
});
