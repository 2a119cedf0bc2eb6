import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExplorationReport } from "@racksmith/core";
import { EXAMPLE_MOCKUP, MockupServer, redfishCliArgs } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/runCliForTest.js";

describe("racksmith redfish against the example mockup", () => {
  let server: MockupServer;
  const bmc = (...operation: string[]) => redfishCliArgs({ url: server.url, auth: "session" }, ...operation);
  beforeAll(async () => {
    server = await MockupServer.start({ root: EXAMPLE_MOCKUP, auth: "session" });
  });
  afterAll(() => server.stop());

  it("detect prints the driver and candidate scores", async () => {
    expect(await cliJson(bmc("detect"))).toEqual({
      driver: "redfish-standard",
      candidates: [{ name: "redfish-standard", score: 1 }],
    });
    const human = await cli(bmc("detect"));
    expect(human.stdout).toMatch(/^driver: redfish-standard\nNAME\s+SCORE\nredfish-standard\s+1\n$/);
  });

  it("explore prints the report", async () => {
    const report = await cliJson<ExplorationReport>(bmc("explore"));
    expect(report).toMatchObject({
      vendor: "Racksmith",
      driver: { name: "redfish-standard", pinned: false },
    });
    expect(report.systems[0]).toMatchObject({ id: "1", serialNumber: "RSX1000001", powerState: "On" });
    expect(report.systems[0]?.pcieDevices.length).toBe(4);
    expect(report.managers[0]?.ethernetInterfaces[0]?.mac).toBe("02:00:5E:10:00:F0");
    expect(report.firmware.map((f) => f.id).sort()).toEqual(["BIOS", "BMC", "DPU", "NIC"]);
    expect(report.diagnostics).toEqual([]);
  });

  it("explore's table lists each diagnostic with the resource it is in, not only their count", async () => {
    const faulty = await MockupServer.start({
      root: EXAMPLE_MOCKUP,
      faults: [{ path: "/redfish/v1/Systems/1/EthernetInterfaces", status: 503 }],
    });
    try {
      const run = await cli(redfishCliArgs({ url: faulty.url }, "explore"));
      expect(run.code, run.stderr).toBe(0);
      const table = run.stdout.slice(run.stdout.indexOf("\nDIAGNOSTICS\n"));
      expect(table).toMatch(/^SEVERITY\s+PATH\s+FIELD\s+MESSAGE$/m);
      expect(table).toMatch(
        /^(error|warning)\s+\/redfish\/v1\/Systems\/1\/EthernetInterfaces\s+.*503.*\(not read: missing from the report\)$/m,
      );
    } finally {
      await faulty.stop();
    }
  });

  it("lists print camelCase JSON arrays", async () => {
    const drives = await cliJson<Array<Record<string, unknown>>>(bmc("drives"));
    expect(drives.map((d) => d.id)).toEqual(["NVMe0", "NVMe1"]);
    const sensors = await cliJson<Array<Record<string, unknown>>>(bmc("sensors"));
    expect(sensors[0]).toHaveProperty("reading");
    expect((await cliJson<unknown[]>(bmc("accounts"))).length).toBe(2);
    expect((await cliJson<unknown[]>(bmc("event-log", "--since", "3"))).length).toBe(2);
  });

  it("changes state through the driver: power, boot order, BIOS, passwords", async () => {
    expect((await cli(bmc("power", "ForceOff"))).code).toBe(0);
    expect(await cliJson(bmc("power-state"))).toEqual({ powerState: "Off" });
    expect((await cli(bmc("power", "On"))).code).toBe(0);

    expect((await cli(bmc("set-boot-order-dpu-first", "--mac", "b8:3f:d2:aa:00:01"))).code).toBe(0);
    const options = await cliJson<Array<{ reference: string }>>(bmc("boot-options"));
    expect(options[0]?.reference).toBe("Boot0003");

    expect((await cli(bmc("set-bios", "--attributes", '{"SriovGlobalEnable":"Enabled"}'))).code).toBe(0);
    expect(await cliJson(bmc("pending-bios"))).toEqual({ SriovGlobalEnable: "Enabled" });

    const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-"));
    writeFileSync(join(dir, "pw"), "Operat0r-New!\n");
    const changed = await cli(
      bmc("change-password", "--user", "operator", "--new-password-file", join(dir, "pw")),
    );
    expect(changed.code).toBe(0);
    expect(changed.stdout).not.toContain("Operat0r-New!");
    const operator = { username: "operator", password: "Operat0r-New!" };
    const asOperator = await cli(redfishCliArgs({ url: server.url, credentials: operator }, "power-state"));
    expect(asOperator.code).toBe(0);
  });

  it("reports not_supported honestly", async () => {
    const run = await cli(bmc("lockdown-status"));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/lockdown status is not supported: .*\[not_supported\]/);
  });

  it("browse prints any resource", async () => {
    expect(await cliJson(bmc("browse", "/redfish/v1/Chassis/1"))).toMatchObject({
      Id: "1",
      SerialNumber: "RSXC000001",
    });
  });
});

describe("DPU operations on a BMC that is not a DPU", () => {
  let server: MockupServer;
  beforeAll(async () => {
    server = await MockupServer.start({ root: EXAMPLE_MOCKUP });
  });
  afterAll(() => server.stop());

  it("answer not_supported, and a bad mode is a usage error", async () => {
    const base = ["redfish", "--address", server.url];
    for (const op of ["nic-mode", "base-mac", "enable-rshim"]) {
      const run = await cli([...base, op]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\[not_supported\]/);
    }
    expect((await cli([...base, "set-nic-mode", "smart"])).code).toBe(2);
  });
});
