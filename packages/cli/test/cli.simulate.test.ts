import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type DhcpLease,
  type ExpectedMachine,
  type ExpectedMachineInput,
  parseExpectedMachinesFile,
  type RunningService,
} from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../src/main.js";
import { startInventoryService } from "./support/inventoryService.js";
import { cli, memoryIo } from "./support/runCliForTest.js";

const SAMPLE = join(
  dirname(createRequire(import.meta.url).resolve("@racksmith/simulator/package.json")),
  "scenarios",
  "sample.yaml",
);
const dir = mkdtempSync(join(tmpdir(), "racksmith-simulate-"));

/** Just the endpoints `simulate fleet` registers with (it holds no expected machine), recording what it sent. */
class FakeService {
  readonly batches: Array<{ machines: ExpectedMachineInput[]; mode: string }> = [];
  readonly discoveries: Array<{ mac: string }> = [];
  rejectBatch = false;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeService> {
    let fake: FakeService | undefined;
    const server = createServer((request, response) => void fake?.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** The address this fake hands out for the n-th discovery. */
  static address(n: number): string {
    return `10.201.0.${n + 1}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    const body = JSON.parse(text || "{}");
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (request.method === "GET" && request.url === "/api/v1/expected-machines") {
      return send(200, { machines: [] });
    }
    if (request.method === "POST" && request.url === "/api/v1/expected-machines/batch") {
      this.batches.push(body);
      if (!this.rejectBatch) return send(200, { applied: body.machines.length, deleted: 0, results: [] });
      return send(400, {
        error: {
          code: "expected_machines_rejected",
          status: "INVALID_ARGUMENT",
          message: "1 of the expected machines was rejected; nothing was applied",
          details: {
            results: [
              {
                index: 1,
                bmcMac: body.machines[1].bmcMac,
                ok: false,
                error: { code: "expected_machine_exists", message: "bmcMac is already an expected machine" },
              },
            ],
          },
        },
      });
    }
    if (request.method === "POST" && request.url === "/api/v1/dhcp/discover") {
      const lease: DhcpLease = {
        mac: body.mac,
        address: FakeService.address(this.discoveries.length),
        vendorClass: null,
        relay: null,
        static: false,
        updatedAt: new Date().toISOString(),
      };
      this.discoveries.push(body);
      return send(200, lease);
    }
    send(404, {
      error: { code: "not_found", status: "NOT_FOUND", message: `${request.method} ${request.url}` },
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits for the running command; the timeout only bounds a hang, however busy the machine. */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 30_000, interval: 20 });
}

/** Runs `simulate fleet` until it serves, returns its output so far and a way to stop it. */
async function simulate(argv: string[]): Promise<{ output: string; stop: () => Promise<number> }> {
  const io = memoryIo(dir);
  const running = runCli(["simulate", "fleet", "--scenario", SAMPLE, "--listen", "127.0.0.1:0", ...argv], io);
  let exited: number | undefined;
  void running.then((code) => {
    exited = code;
  });
  await until(() => exited !== undefined || /Press Ctrl\+C|"url"/.test(io.out.join("")));
  if (exited !== undefined) throw new Error(`simulate fleet exited ${exited}: ${io.err.join("")}`);
  return {
    output: io.out.join(""),
    stop: () => {
      io.stop();
      return running;
    },
  };
}

/**
 * The status a BMC's service root answers through the fleet; 0 when it drops the request, or when it has not
 * answered within `giveUpMs` (only for the slow BMC: the others are waited for however busy the machine is).
 */
async function serviceRoot(fleetUrl: string, address: string, giveUpMs?: number): Promise<number> {
  try {
    const headers = { forwarded: `host="${address}"` };
    const signal = giveUpMs === undefined ? undefined : AbortSignal.timeout(giveUpMs);
    return (await fetch(`${fleetUrl}/redfish/v1`, { headers, ...(signal ? { signal } : {}) })).status;
  } catch {
    return 0;
  }
}

/** The anomalies of each BMC `simulate fleet --out` wrote, by the address it serves at. */
function anomaliesByAddress(out: string): Map<string, string[]> {
  const fleet = JSON.parse(readFileSync(join(out, "fleet.json"), "utf8")) as {
    bmcs: Array<{ address: string; anomalies: string[] }>;
  };
  return new Map(fleet.bmcs.map((bmc) => [bmc.address, bmc.anomalies]));
}

describe("racksmith simulate fleet (against a fake service)", () => {
  let fake: FakeService;
  beforeAll(async () => {
    fake = await FakeService.start();
  });
  afterAll(() => fake.stop());

  it("registers the expected machines and one discovery per BMC, serves each BMC at its leased address, writes the files", async () => {
    const out = join(dir, "out");
    const run = await simulate(["--server", fake.url, "--out", out]);
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output)?.[1] ?? "";
    expect(run.output).toContain(`Fleet of 23 virtual BMCs from sample.yaml at ${url}`);
    expect(run.output).toContain(`bmcProxy: ${url}`);
    expect(run.output).toContain(`Registered with ${fake.url}: 12 expected machines, 23 DHCP discoveries.`);
    for (const kind of [
      "wrongSerial",
      "nicModeDpu",
      "missingDpu",
      "poweredOff",
      "passwordChangeRequired",
      "unauthorized",
      "unreachable",
      "slow",
      "malformedJson",
    ]) {
      expect(run.output).toContain(kind);
    }
    expect(run.output).not.toMatch(/calvin|PASSW0RD|0penBmc/);

    const [batch] = fake.batches;
    expect(batch?.mode).toBe("add");
    expect(batch?.machines).toHaveLength(12);
    expect(fake.discoveries).toHaveLength(23);
    expect(new Set(fake.discoveries.map((discovery) => discovery.mac)).size).toBe(23);

    const fleet = JSON.parse(readFileSync(join(out, "fleet.json"), "utf8")) as {
      bmcs: Array<{ mac: string; address: string; anomalies: string[] }>;
    };
    const leased = new Map(fake.discoveries.map((discovery, n) => [discovery.mac, FakeService.address(n)]));
    for (const bmc of fleet.bmcs) {
      expect(bmc.address).toBe(leased.get(bmc.mac));
      if (!bmc.anomalies.some((kind) => ["unreachable", "slow", "malformedJson"].includes(kind))) {
        expect(await serviceRoot(url, bmc.address)).toBe(200);
      }
    }
    expect(await serviceRoot(url, "10.100.0.1")).toBe(404);

    expect(JSON.parse(readFileSync(join(out, "expected-machines.json"), "utf8"))).toEqual(batch?.machines);
    // The CSV reads back, with the inventory's own parser, as the machines registered.
    const csv = readFileSync(join(out, "expected-machines.csv"), "utf8");
    expect(parseExpectedMachinesFile(csv, "expected-machines.csv").machines).toEqual(batch?.machines);
    const byMac = (a: { mac: string }, b: { mac: string }) => a.mac.localeCompare(b.mac);
    const written = JSON.parse(readFileSync(join(out, "dhcp-discoveries.json"), "utf8")) as Array<{
      mac: string;
    }>;
    expect(written.sort(byMac)).toEqual([...fake.discoveries].sort(byMac));
    expect(readFileSync(join(out, "factory-defaults", "nvidia-dpu.password"), "utf8")).toBe("0penBmc\n");
    for (const secret of [
      "expected-machines.json",
      "expected-machines.csv",
      "factory-defaults/dell.password",
    ]) {
      expect(statSync(join(out, secret)).mode & 0o777).toBe(0o600);
    }
    expect(run.output).toContain(
      `racksmith credentials set factory-default --vendor nvidia-dpu --username root --password-file ${join(out, "factory-defaults", "nvidia-dpu.password")}`,
    );
    expect(await run.stop()).toBe(0);
  });

  it("prints one JSON document with --json, and registers nothing with --no-register", async () => {
    const before = fake.discoveries.length;
    const run = await simulate(["--json", "--no-register"]);
    const summary = JSON.parse(run.output) as Record<string, unknown>;
    expect(summary).toMatchObject({ bmcs: 23, hosts: 12, dpus: 11, registered: null, out: null });
    expect(summary.models).toContainEqual({
      vendor: "nvidia-dpu",
      kind: "dpu",
      model: "bluefield-2",
      count: 5,
    });
    expect(summary.anomalies).toHaveLength(9);
    expect(summary.factoryDefaults).toContainEqual({ vendor: "dell", username: "root" });
    expect(fake.discoveries).toHaveLength(before);
    expect(await run.stop()).toBe(0);
  });

  it("prints the rows the service rejected, registers no discovery and exits 1", async () => {
    fake.rejectBatch = true;
    const before = fake.discoveries.length;
    try {
      const run = await cli(
        ["simulate", "fleet", "--scenario", SAMPLE, "--listen", "127.0.0.1:0", "--server", fake.url],
        dir,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the service rejected 1 expected machines; nothing was registered/);
      expect(run.stderr).toMatch(/1 +[0-9A-F:]{17} +bmcMac is already an expected machine/);
      expect(fake.discoveries).toHaveLength(before);
    } finally {
      fake.rejectBatch = false;
    }
  });
});

describe("racksmith simulate fleet refuses", () => {
  it.each<[string, string[], number, RegExp]>([
    ["no scenario", ["simulate", "fleet"], 2, /required option '--scenario <file>' not specified/],
    [
      "a bad --listen",
      ["simulate", "fleet", "--scenario", SAMPLE, "--listen", "8700"],
      2,
      /--listen must be HOST:PORT/,
    ],
    [
      "a missing scenario file",
      ["simulate", "fleet", "--scenario", "nope.yaml", "--no-register"],
      1,
      /nope\.yaml: \(file\): cannot be read/,
    ],
    [
      "an unreachable service",
      [
        "simulate",
        "fleet",
        "--scenario",
        SAMPLE,
        "--listen",
        "127.0.0.1:0",
        "--server",
        "http://127.0.0.1:1",
      ],
      1,
      /cannot reach the Racksmith service at http:\/\/127\.0\.0\.1:1/,
    ],
  ])("%s", async (_name, argv, code, message) => {
    const run = await cli(argv, dir);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  it("a scenario with a bad key, naming it", async () => {
    writeFileSync(
      join(dir, "bad.yaml"),
      "hosts:\n  - vendor: dell\n    model: poweredge-r750\n    count: many\n",
    );
    const run = await cli(["simulate", "fleet", "--scenario", "bad.yaml", "--no-register"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.yaml: hosts\[0\]\.count: must be integer \[fleet_scenario_invalid\]/);
  });
});

describe("racksmith simulate fleet (against racksmith serve)", () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startInventoryService(dir);
  });
  afterAll(() => service?.stop());

  it("registers every host as an expected machine and serves every BMC at the address the service leased it", async () => {
    const server = `http://127.0.0.1:${service.http.port}`;
    const out = join(dir, "served");
    const token = service.adminToken ?? "";
    const run = await simulate(["--server", server, "--token", token, "--out", out]);
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output)?.[1] ?? "";
    const expected = await fetch(`${server}/api/v1/expected-machines`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { machines } = (await expected.json()) as {
      machines: ExpectedMachine[];
    };
    expect(machines).toHaveLength(12);
    expect(machines.every((machine) => machine.hasFactoryPassword && machine.dpuMode === "dpu")).toBe(true);
    const { leases } = (await (
      await fetch(`${server}/api/v1/dhcp/leases`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      leases: DhcpLease[];
    };
    expect(leases).toHaveLength(23);
    const anomalies = anomaliesByAddress(out);
    const statuses = await Promise.all(
      leases.map(async (lease) => {
        const kinds = anomalies.get(lease.address) ?? [];
        // The slow BMC holds its answer 10 s: that it has none after 1 s is all this waits for.
        const status = await serviceRoot(url, lease.address, kinds.includes("slow") ? 1_000 : undefined);
        return { kinds, status };
      }),
    );
    // Every leased address reaches a virtual BMC, but the one that drops connections and the slow one.
    expect(statuses.filter(({ status }) => status === 200)).toHaveLength(21);
    const unanswered = statuses.filter(({ status }) => status !== 200).map(({ kinds }) => kinds.join(","));
    expect(unanswered.sort()).toEqual(["slow", "unreachable"]);
    expect(await run.stop()).toBe(0);
  }, 60_000);
});
