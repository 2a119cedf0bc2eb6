import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Instance } from "../src/commands/instances.js";
import { FakeService } from "./support/fakeService.js";
import { cli } from "./support/runCliForTest.js";

const INSTANCE: Instance = {
  id: "inst-1",
  name: "web",
  machineId: "host-1",
  tenantOrg: "acme",
  instanceType: null,
  config: { network: { interfaces: [{ function: "pf0", network: "tenant-a" }] } },
  configVersion: 1,
  status: {
    tenantState: "Provisioning",
    hostState: "assigned/waitingForNetworkConfig",
    configsSynced: { aggregate: "pending", subsystems: { network: "pending" } },
  },
  createdAt: "2025-01-02T03:04:05.000Z",
  releaseRequestedAt: null,
  terminatedAt: null,
  releaseIssue: null,
};
const TERMINATED: Instance = {
  ...INSTANCE,
  id: "inst-0",
  name: "old",
  status: {
    tenantState: "Terminated",
    hostState: "ready",
    configsSynced: { aggregate: "synced", subsystems: { network: "synced" } },
  },
  releaseRequestedAt: "2025-01-01T00:00:00.000Z",
  terminatedAt: "2025-01-01T01:00:00.000Z",
  releaseIssue: { category: "hardware", summary: "fan noise" },
};

describe("racksmith instance (against a fake service)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-instances-"));
  let service: FakeService;
  const run = (...argv: string[]) => cli([...argv, "--server", service.url], dir);

  beforeAll(async () => {
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({ network: { interfaces: [{ function: "pf0", network: "tenant-b" }] } }),
    );
    writeFileSync(join(dir, "broken.json"), "{ nope");
    service = await FakeService.start({
      "POST /api/v1/instances": { status: 201, body: INSTANCE },
      "GET /api/v1/instances": { status: 200, body: { instances: [INSTANCE, TERMINATED] } },
      "GET /api/v1/instances/inst-1": { status: 200, body: INSTANCE },
      "GET /api/v1/instances/nope": FakeService.error(404, "instance_not_found", "no instance nope"),
      "POST /api/v1/instances/inst-1/release": {
        status: 202,
        body: { ...INSTANCE, status: { ...INSTANCE.status, tenantState: "Terminating" } },
      },
      "PUT /api/v1/instances/inst-1/config": { status: 200, body: { ...INSTANCE, configVersion: 2 } },
    });
  });
  afterAll(() => service.close());
  beforeEach(() => service.reset());

  it("allocate --machine sends the machine, tenant, name and interfaces, and shows the status", async () => {
    const result = await run(
      "instance",
      "allocate",
      "--machine",
      "host-1",
      "--tenant",
      "acme",
      "--name",
      "web",
      "--interface",
      "pf0=tenant-a",
      "--interface",
      "pf1=tenant-c",
    );
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(service.requests).toEqual([
      {
        method: "POST",
        url: "/api/v1/instances",
        body: {
          machineId: "host-1",
          tenantOrg: "acme",
          name: "web",
          config: {
            network: {
              interfaces: [
                { function: "pf0", network: "tenant-a" },
                { function: "pf1", network: "tenant-c" },
              ],
            },
          },
        },
      },
    ]);
    expect(result.stdout).toMatch(/^tenantState\s+Provisioning$/m);
    expect(result.stdout).toMatch(/^hostState\s+assigned\/waitingForNetworkConfig$/m);
    expect(result.stdout).toMatch(/^configsSynced\s+pending \(network\)$/m);
    expect(result.stdout).toMatch(/^interfaces\s+pf0=tenant-a$/m);
  });

  it("allocate --instance-type with --config FILE sends the file's config; --json prints the API object", async () => {
    const result = await run(
      "instance",
      "allocate",
      "--instance-type",
      "gpu-8x",
      "--tenant",
      "acme",
      "--config",
      "config.json",
      "--json",
    );
    expect(result.code).toBe(0);
    expect(service.requests[0]?.body).toEqual({
      instanceType: "gpu-8x",
      tenantOrg: "acme",
      config: { network: { interfaces: [{ function: "pf0", network: "tenant-b" }] } },
    });
    expect(JSON.parse(result.stdout)).toEqual(INSTANCE);
  });

  it.each([
    [
      "both --machine and --instance-type",
      ["--machine", "h", "--instance-type", "t", "--tenant", "a"],
      /exactly one/,
    ],
    ["neither --machine nor --instance-type", ["--tenant", "a"], /exactly one/],
    ["no --tenant", ["--machine", "h"], /--tenant/],
    [
      "a malformed --interface",
      ["--machine", "h", "--tenant", "a", "--interface", "pf0"],
      /FUNCTION=NETWORK/,
    ],
    [
      "a --config that is not JSON",
      ["--machine", "h", "--tenant", "a", "--config", "broken.json"],
      /not JSON/,
    ],
    ["a missing --config file", ["--machine", "h", "--tenant", "a", "--config", "absent.json"], /ENOENT/],
  ])("allocate with %s is a usage error (exit 2) and sends nothing", async (_name, argv, message) => {
    const result = await run("instance", "allocate", ...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Run 'racksmith instance allocate --help' for usage.");
    expect(service.requests).toEqual([]);
  });

  it("release sends the issue when given, nothing otherwise", async () => {
    const withIssue = await run(
      "instance",
      "release",
      "inst-1",
      "--issue-category",
      "hardware",
      "--issue-summary",
      "GPU 3 throws XID 79",
    );
    expect(withIssue.code).toBe(0);
    expect(withIssue.stdout).toMatch(/^tenantState\s+Terminating$/m);
    const plain = await run("instance", "release", "inst-1");
    expect(plain.code).toBe(0);
    expect(service.requests).toEqual([
      {
        method: "POST",
        url: "/api/v1/instances/inst-1/release",
        body: { issue: { category: "hardware", summary: "GPU 3 throws XID 79" } },
      },
      { method: "POST", url: "/api/v1/instances/inst-1/release", body: {} },
    ]);
    const half = await run("instance", "release", "inst-1", "--issue-category", "hardware");
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/go together/);
    expect(service.requests).toHaveLength(2);
  });

  it("show prints one instance; an unknown id exits 1 with the service's code", async () => {
    const shown = await run("instance", "show", "inst-1");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^id\s+inst-1$/m);
    expect(shown.stdout).toMatch(/^tenant\s+acme$/m);
    expect(JSON.parse((await run("instance", "show", "inst-1", "--json")).stdout)).toEqual(INSTANCE);
    const missing = await run("instance", "show", "nope");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[instance_not_found]");
  });

  it("list passes the filters as query parameters and prints a table (or the API objects)", async () => {
    const table = await run("instance", "list", "--tenant", "acme", "--machine", "host-1", "--all");
    expect(table.code).toBe(0);
    expect(service.requests[0]?.url).toBe(
      "/api/v1/instances?tenantOrg=acme&machineId=host-1&includeTerminated=true",
    );
    const [header, ...rows] = table.stdout.trim().split("\n");
    expect(header).toMatch(
      /^ID\s+NAME\s+TENANT\s+MACHINE\s+TENANT STATE\s+HOST STATE\s+CONFIGS SYNCED\s+CREATED AT$/,
    );
    expect(rows[0]).toMatch(
      /^inst-1\s+web\s+acme\s+host-1\s+Provisioning\s+assigned\/waitingForNetworkConfig\s+pending \(network\)/,
    );
    expect(rows[1]).toMatch(/^inst-0\s+old\s+.*Terminated\s+ready\s+synced/);

    service.reset();
    const json = await run("instance", "list", "--json");
    expect(service.requests[0]?.url).toBe("/api/v1/instances");
    expect(JSON.parse(json.stdout)).toEqual([INSTANCE, TERMINATED]);
  });

  it("update-config sends the file's config and the expected version", async () => {
    const result = await run(
      "instance",
      "update-config",
      "inst-1",
      "--config",
      "config.json",
      "--if-version",
      "1",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^configVersion\s+2$/m);
    expect(service.requests).toEqual([
      {
        method: "PUT",
        url: "/api/v1/instances/inst-1/config",
        body: {
          config: { network: { interfaces: [{ function: "pf0", network: "tenant-b" }] } },
          ifVersionMatch: 1,
        },
      },
    ]);
    const bad = await run(
      "instance",
      "update-config",
      "inst-1",
      "--config",
      "config.json",
      "--if-version",
      "two",
    );
    expect(bad.code).toBe(2);
    expect((await run("instance", "update-config", "inst-1")).code).toBe(2);
    expect(service.requests).toHaveLength(1);
  });
});
