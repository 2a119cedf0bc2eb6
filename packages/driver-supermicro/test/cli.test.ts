import { fileURLToPath } from "node:url";
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
  MockupServer,
  presentSharedVendors,
  redfishCliArgs,
  reportMacs,
  sharedMockup,
} from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/cli.js";
import { MODELS, PACKAGE_DIR } from "./support/mockups.js";

const CONFIG = fileURLToPath(new URL("./fixtures/racksmith.yaml", import.meta.url));
const MISSPELT_CONFIG = fileURLToPath(new URL("./fixtures/misspelt-settings.yaml", import.meta.url));

describe("racksmith drivers list with the package named in the config", () => {
  it("lists the supermicro driver with its models", async () => {
    const drivers = await cliJson<Array<Record<string, unknown>>>(["drivers", "list", "--config", CONFIG]);
    expect(drivers).toContainEqual(
      expect.objectContaining({
        name: "supermicro",
        vendor: "Supermicro",
        package: "@racksmith/driver-supermicro",
        models: ["SYS-821GE-TNHR", "SYS-121H-TNR"],
      }),
    );
  });

  it("refuses a misspelt key in the driver's settings", async () => {
    const run = await cli(["drivers", "list", "--config", MISSPELT_CONFIG]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/supermicro/);
    expect(run.stderr).toMatch(/biosProfils/);
  });
});

describe.each(MODELS)("racksmith driver test on the bundled %s mockup", (model) => {
  it("exits 0 with every capability passing or honestly not supported", async () => {
    const report = await cliJson<ConformanceReport>(
      ["driver", "test", "@racksmith/driver-supermicro", "--mockup", `mockups/${model}`],
      PACKAGE_DIR,
    );
    expect(report).toMatchObject({ driver: "supermicro", passed: true });
    expect(report.results.filter((r) => r.status === "fail")).toEqual([]);
  });
});

// Acceptance checks 1–3 of the vendor-driver issue, through the CLI, on the real capture when it is there.
const captured = presentSharedVendors("the CLI acceptance checks on the real Supermicro capture", [
  "supermicro",
]);

describe("racksmith redfish on the real Supermicro capture (SYS-821GE-TNHR, BMC 11.01.01, BIOS 1.4)", () => {
  let server: MockupServer | undefined;
  const redfish = <T>(...op: string[]): Promise<T> =>
    cliJson<T>(redfishCliArgs({ url: server?.url ?? "", config: CONFIG }, ...op));

  beforeAll(async () => {
    const root = sharedMockup("supermicro");
    // A plain mockup server, as `racksmith mockup serve` runs it: no vendor behaviors.
    if (root) server = await MockupServer.start({ root, auth: "basic" });
  });
  afterAll(() => server?.stop());

  it.skipIf(captured.length === 0)("detect picks supermicro, scoring above the standard driver", async () => {
    const detected = await redfish<{ driver: string; candidates: Array<{ name: string; score: number }> }>(
      "detect",
    );
    expect(detected.driver).toBe("supermicro");
    const score = (name: string) => detected.candidates.find((c) => c.name === name)?.score ?? -1;
    expect(score("supermicro")).toBeGreaterThan(score("redfish-standard"));
  });

  it.skipIf(captured.length === 0)(
    "counts 2 accounts, 8 drives and 26 PCIe devices with their state",
    async () => {
      expect(await redfish<AccountInfo[]>("accounts")).toHaveLength(2);
      expect(await redfish<DriveInfo[]>("drives")).toHaveLength(8);
      const pcie = await redfish<PcieDeviceInfo[]>("pcie-devices");
      expect(pcie).toHaveLength(26);
      // Each with its state, as the capture has it: every device enabled but the second port of NIC9.
      expect(pcie.filter((device) => device.state !== "Enabled")).toEqual([
        expect.objectContaining({ id: "NIC9", state: "Disabled" }),
      ]);
      expect(pcie.every((device) => device.state)).toBe(true);
    },
  );

  it.skipIf(captured.length === 0)(
    "has unique manager and system MACs, power On and more than 8 BIOS attributes",
    async () => {
      const report = await redfish<ExplorationReport>("explore");
      const macs = reportMacs(report);
      expect(macs.managers.length).toBeGreaterThan(0);
      expect(macs.systems.length).toBeGreaterThan(0);
      expect(macs.all.every(Boolean)).toBe(true);
      expect(new Set(macs.all).size).toBe(macs.all.length);
      expect(report.driver.name).toBe("supermicro");
      expect(await redfish<{ powerState: string }>("power-state")).toEqual({ powerState: "On" });
      expect(Object.keys(await redfish<BiosAttributes>("bios")).length).toBeGreaterThan(8);
    },
  );

  it.skipIf(captured.length === 0)(
    "runs the lifecycle flow: power, lockdown off, serial console, TPM clear, boot, lockdown on",
    async () => {
      for (const action of ["GracefulShutdown", "ForceOff", "On"]) await redfish("power", action);
      expect(await redfish<{ powerState: string }>("power-state")).toEqual({ powerState: "On" });
      await redfish("lockdown", "disable");
      expect((await redfish<TriStateStatus>("lockdown-status")).state).toBe("disabled");
      await redfish("serial-console-setup");
      expect((await redfish<TriStateStatus>("serial-console-status")).state).toBe("enabled");
      await redfish("tpm-clear");
      await redfish<BiosAttributes>("pending-bios");
      await redfish("boot-once", "pxe");
      await redfish("boot-first", "hdd");
      await redfish("lockdown", "enable");
      expect((await redfish<TriStateStatus>("lockdown-status")).state).toBe("enabled");
    },
  );
});
