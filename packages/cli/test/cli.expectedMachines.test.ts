import { mkdtempSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExpectedMachine, RunningService } from "@racksmith/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startInventoryService } from "./support/inventoryService.js";
import { cli, cliJson } from "./support/runCliForTest.js";

const SECRET = "Fact0ry-S3cret!";
const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-em-"));
const file = (name: string, content: string): string => {
  writeFileSync(join(dir, name), content);
  return name;
};

describe("racksmith expected-machine and dhcp (against a running service)", () => {
  let service: RunningService;
  let server: string[];
  const run = (...argv: string[]) => cli([...argv, ...server], dir);
  const json = <T>(...argv: string[]) => cliJson<T>([...argv, ...server], dir);

  beforeAll(async () => {
    service = await startInventoryService(dir);
    server = ["--server", `http://127.0.0.1:${service.http.port}`, "--token", service.adminToken ?? ""];
    file("factory-password", `${SECRET}\n`);
  });
  afterAll(async () => {
    await service?.stop();
  });
  beforeEach(async () => {
    await service.database.db.deleteFrom("expected_machines").execute();
  });

  it("adds a machine from flags, reading the factory password from a file, and shows, lists and deletes it", async () => {
    const added = await json<ExpectedMachine>(
      "expected-machine",
      "add",
      "--bmc-mac",
      "aabbccddee01",
      "--chassis-serial",
      "SN-1",
      "--bmc-address",
      "10.9.0.1",
      "--factory-username",
      "root",
      "--factory-password-file",
      "factory-password",
      "--fallback-dpu-serial",
      "DPU-1",
      "--fallback-dpu-serial",
      "DPU-2",
      "--dpu-mode",
      "nic",
      "--driver",
      "dell",
      "--label",
      "rack=r1",
      "--label",
      "row=7",
      "--sku",
      "sku-1",
    );
    expect(added).toMatchObject({
      bmcMac: "AA:BB:CC:DD:EE:01",
      bmcAddress: "10.9.0.1",
      factoryUsername: "root",
      hasFactoryPassword: true,
      fallbackDpuSerials: ["DPU-1", "DPU-2"],
      dpuMode: "nic",
      driver: "dell",
      labels: { rack: "r1", row: "7" },
      skuId: "sku-1",
    });
    const shown = await run("expected-machine", "show", "aa-bb-cc-dd-ee-01");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^bmcMac\s+AA:BB:CC:DD:EE:01$/m);
    expect(shown.stdout).toMatch(/^hasFactoryPassword\s+true$/m);
    expect(await json("expected-machine", "list")).toEqual([added]);
    const table = await run("expected-machine", "list");
    expect(table.stdout.split("\n")[0]).toMatch(/^BMC MAC\s+CHASSIS SERIAL\s+BMC ADDRESS\s+DPU MODE/);
    for (const output of [shown.stdout, table.stdout, JSON.stringify(added)])
      expect(output).not.toContain(SECRET);
    expect(await run("expected-machine", "delete", "AA:BB:CC:DD:EE:01")).toMatchObject({
      code: 0,
      stdout: "deleted expected machine AA:BB:CC:DD:EE:01\n",
    });
    expect(await json("expected-machine", "list")).toEqual([]);
  });

  it.each([
    [["--factory-password-file", "factory-password"], "--factory-password-file needs --factory-username"],
    [["--label", "rack"], '--label must be key=value, got "rack"'],
    [["--dpu-mode", "smart"], "argument 'smart' is invalid. Allowed choices are dpu, nic, no-dpu"],
    [
      ["--factory-username", "root", "--factory-password-file", "missing"],
      "--factory-password-file: cannot read missing: ENOENT",
    ],
  ])("add %j is a usage error", async (extra, message) => {
    const result = await run(
      "expected-machine",
      "add",
      "--bmc-mac",
      "aabbccddee02",
      "--chassis-serial",
      "S",
      ...extra,
    );
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toContain(message);
  });

  it("fails with the service's error code for a known MAC, a bad field and an unknown machine", async () => {
    await run("expected-machine", "add", "--bmc-mac", "aabbccddee03", "--chassis-serial", "S");
    const again = await run("expected-machine", "add", "--bmc-mac", "aabbccddee03", "--chassis-serial", "S");
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toBe(
      "racksmith: an expected machine with BMC MAC AA:BB:CC:DD:EE:03 exists [expected_machine_exists]\n",
    );
    const bad = await run("expected-machine", "add", "--bmc-mac", "aabbccddee04", "--chassis-serial", " ");
    expect(bad.stderr).toContain("chassisSerial: must not be empty or blank [invalid_expected_machine]");
    expect((await run("expected-machine", "show", "aabbccddee09")).stderr).toContain(
      "[expected_machine_not_found]",
    );
  });

  it("imports a CSV all or nothing: a bad row rejects the file, each row reported with its line", async () => {
    const csv = file(
      "machines.csv",
      [
        "bmcMac,chassisSerial,factoryUsername,factoryPassword,labels",
        `aabbccddee10,SN-10,root,${SECRET},rack=r1`,
        "aabbccddee11,,,,",
        "aabbccddee12,SN-12,,,",
      ].join("\n"),
    );
    const strict = await run("expected-machine", "import", csv);
    expect(strict.code).toBe(1);
    const lines = strict.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ROW\s+LINE\s+BMC MAC\s+RESULT\s+REASON$/);
    expect(lines[1]).toMatch(/^1\s+2\s+AA:BB:CC:DD:EE:10\s+not applied\s+-$/);
    expect(lines[2]).toMatch(
      /^2\s+3\s+AA:BB:CC:DD:EE:11\s+rejected\s+invalid_expected_machine: chassisSerial: is required$/,
    );
    expect(lines.at(-1)).toBe("nothing applied: 1 of 3 rejected");
    expect(strict.stdout).not.toContain(SECRET);
    expect(await json("expected-machine", "list")).toEqual([]);

    const partial = await run("expected-machine", "import", csv, "--accept-partial");
    expect(partial.code).toBe(1);
    expect(partial.stdout.trim().split("\n").at(-1)).toBe("applied 2, rejected 1");
    expect(
      (await json<ExpectedMachine[]>("expected-machine", "list")).map((m) => [
        m.bmcMac,
        m.hasFactoryPassword,
      ]),
    ).toEqual([
      ["AA:BB:CC:DD:EE:10", true],
      ["AA:BB:CC:DD:EE:12", false],
    ]);
  });

  it("imports JSON and replaces all, printing one JSON document with --json", async () => {
    const first = file(
      "first.json",
      JSON.stringify([
        { bmcMac: "aabbccddee20", chassisSerial: "SN-20" },
        { bmcMac: "aabbccddee21", chassisSerial: "SN-21" },
      ]),
    );
    const imported = await run("expected-machine", "import", first);
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout.trim().split("\n").at(-1)).toBe("applied 2");
    const next = file(
      "next.json",
      JSON.stringify({ machines: [{ bmcMac: "aabbccddee21", chassisSerial: "SN-21b" }] }),
    );
    expect(await json("expected-machine", "replace-all", next)).toEqual({
      applied: 1,
      deleted: 1,
      results: [{ index: 0, bmcMac: "AA:BB:CC:DD:EE:21", ok: true }],
    });
    const rejected = await run(
      "expected-machine",
      "replace-all",
      file("bad.json", '[{"bmcMac":"x"}]'),
      "--json",
    );
    expect(rejected.code).toBe(1);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ applied: 0, results: [{ index: 0, ok: false }] });
    expect((await json<ExpectedMachine[]>("expected-machine", "list")).map((m) => m.chassisSerial)).toEqual([
      "SN-21b",
    ]);
  });

  it.each([
    [["import", "nowhere.csv"], 2, "cannot read nowhere.csv: ENOENT"],
    [
      ["import", "broken.csv"],
      1,
      "broken.csv: line 2: a quote inside an unquoted field; quote the whole field [expected_machines_file_invalid]",
    ],
    [
      ["replace-all", "empty.json"],
      1,
      "empty.json: holds no expected machines; replace-all would delete every expected machine",
    ],
  ])("%j exits %i: %s", async (argv, code, message) => {
    file("broken.csv", 'bmcMac,chassisSerial\naa,S"N\n');
    file("empty.json", "[]");
    const result = await run("expected-machine", ...argv);
    expect(result.code).toBe(code);
    expect(result.stderr.split("\n")[0]).toContain(message);
  });

  it("records DHCP discoveries and lists leases", async () => {
    const lease = await json<{ address: string; static: boolean }>(
      "dhcp",
      "discover",
      "--mac",
      "02:00:00:00:00:07",
      "--vendor-class",
      "iLO",
    );
    expect(lease).toMatchObject({ address: expect.stringMatching(/^10\.100\./), static: false });
    expect(await json("dhcp", "leases")).toEqual([
      expect.objectContaining({ mac: "02:00:00:00:00:07", address: lease.address }),
    ]);
  });

  it("reports an unreachable service as a failure naming the URL", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const result = await cli(["expected-machine", "list", "--server", `http://127.0.0.1:${closed}`], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `racksmith: cannot reach the Racksmith service at http://127.0.0.1:${closed}: ECONNREFUSED [service_unreachable]\n`,
    );
  });
});
