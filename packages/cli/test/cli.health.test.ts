import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HealthHistory, MachineHealth } from "../src/commands/health.js";
import { FakeService } from "./support/fakeService.js";
import { cli } from "./support/runCliForTest.js";

const HEALTH: MachineHealth = {
  machineId: "host-1",
  hostId: "host-1",
  kind: "host",
  report: {
    source: "aggregate-host-health",
    observedAt: "2026-04-01T08:00:00.000Z",
    successes: [{ id: "BgpPeeringTor" }],
    alerts: [
      {
        id: "HeartbeatTimeout",
        target: "forge-dpu-agent",
        inAlertSince: "2026-04-01T07:55:00.000Z",
        message: "DPU dpu-1: no health report from forge-dpu-agent",
        classifications: ["PreventAllocations", "PreventHostStateChanges"],
      },
      {
        id: "Maintenance",
        inAlertSince: "2026-04-01T07:59:00.000Z",
        message: "Host is under maintenance",
        classifications: ["PreventAllocations", "SuppressExternalAlerting"],
      },
    ],
  },
  overrides: [{ source: "maintenance", mode: "merge" }],
};
const HISTORY: HealthHistory = {
  machineId: "host-1",
  hostId: "host-1",
  entries: [
    { at: "2026-04-01T07:59:00.000Z", hash: "a".repeat(64), report: HEALTH.report },
    { at: "2026-04-01T07:55:00.000Z", hash: "b".repeat(64), report: { ...HEALTH.report, alerts: [] } },
  ],
};
const HEALTHY: MachineHealth = {
  ...HEALTH,
  report: { ...HEALTH.report, alerts: [] },
  overrides: [{ source: "sre", mode: "replace" }],
};

describe("racksmith health (against a fake service)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-health-"));
  let service: FakeService;
  const run = (...argv: string[]) => cli([...argv, "--server", service.url], dir);

  beforeAll(async () => {
    writeFileSync(
      join(dir, "report.json"),
      JSON.stringify({
        source: "fleet",
        alerts: [{ id: "Fleet", message: "ticket 42", classifications: [] }],
      }),
    );
    writeFileSync(join(dir, "broken.json"), "{ nope");
    service = await FakeService.start({
      "GET /api/v1/machines/host-1/health": { status: 200, body: HEALTH },
      "GET /api/v1/machines/host-1/health/history": { status: 200, body: HISTORY },
      "GET /api/v1/machines/nope/health": FakeService.error(404, "machine_not_found", "no machine nope"),
      "POST /api/v1/machines/host-1/health/overrides": { status: 201, body: HEALTHY },
      "DELETE /api/v1/machines/host-1/health/overrides/sre": { status: 200, body: HEALTH },
      "DELETE /api/v1/machines/host-1/health/overrides/ghost": FakeService.error(
        404,
        "health_override_not_found",
        'machine host-1 has no health override from source "ghost"',
      ),
    });
  });
  afterAll(() => service.close());
  beforeEach(() => service.reset());

  it("show prints the alerts as a table, the successes counted and the overrides", async () => {
    const result = await run("health", "show", "host-1");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^machine\s+host-1$/m);
    expect(result.stdout).toMatch(/^successes\s+1$/m);
    expect(result.stdout).toMatch(/^overrides\s+maintenance \(merge\)$/m);
    expect(result.stdout).toMatch(/^ID\s+TARGET\s+CLASSIFICATIONS\s+SINCE\s+MESSAGE$/m);
    expect(result.stdout).toMatch(
      /^HeartbeatTimeout\s+forge-dpu-agent\s+PreventAllocations, PreventHostStateChanges\s+2026-04-01T07:55:00.000Z\s+DPU dpu-1: no health report/m,
    );
    expect(result.stdout).toMatch(/^Maintenance\s+-\s+PreventAllocations, SuppressExternalAlerting/m);
    expect(service.requests.map((r) => r.url)).toEqual(["/api/v1/machines/host-1/health"]);
  });

  it("show --json prints the aggregate report with its overrides; --history adds the history", async () => {
    const json = await run("health", "show", "host-1", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ ...HEALTH.report, overrides: HEALTH.overrides });

    const withHistory = await run("health", "show", "host-1", "--json", "--history");
    expect(JSON.parse(withHistory.stdout).history).toEqual(HISTORY.entries);
    const text = await run("health", "show", "host-1", "--history");
    expect(text.stdout).toMatch(/^HISTORY \(newest first\)$/m);
    expect(text.stdout).toMatch(
      /^2026-04-01T07:59:00.000Z\s+HeartbeatTimeout\(forge-dpu-agent\), Maintenance\s+a{12}$/m,
    );
  });

  it("show of an unknown machine exits 1 with the service's code", async () => {
    const missing = await run("health", "show", "nope");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[machine_not_found]");
  });

  it("override add sends a template (its own mode unless --replace) or a report file", async () => {
    const template = await run(
      "health",
      "override",
      "add",
      "host-1",
      "--source",
      "sre",
      "--template",
      "mark-healthy",
    );
    expect(template.code).toBe(0);
    expect(template.stdout).toMatch(/^overrides\s+sre \(replace\)$/m);
    await run(
      "health",
      "override",
      "add",
      "host-1",
      "--source",
      "fleet",
      "--report",
      "report.json",
      "--replace",
      "--triggered-by",
      "alice",
    );
    await run(
      "health",
      "override",
      "add",
      "host-1",
      "--source",
      "m",
      "--template",
      "maintenance",
      "--message",
      "CHG-1",
    );
    expect(service.requests.map((r) => r.body)).toEqual([
      { source: "sre", template: "mark-healthy" },
      {
        source: "fleet",
        mode: "replace",
        report: { source: "fleet", alerts: [{ id: "Fleet", message: "ticket 42", classifications: [] }] },
        triggeredBy: "alice",
      },
      { source: "m", template: "maintenance", message: "CHG-1" },
    ]);
    expect(service.requests.every((r) => r.method === "POST")).toBe(true);
  });

  it.each([
    ["both --report and --template", ["--report", "report.json", "--template", "maintenance"], /exactly one/],
    ["neither --report nor --template", [], /exactly one/],
    ["an unknown template", ["--template", "vacation"], /unknown --template 'vacation' \(known: maintenance/],
    ["a report that is not JSON", ["--report", "broken.json"], /not JSON/],
    ["a missing report file", ["--report", "absent.json"], /ENOENT/],
    [
      "--message without --template",
      ["--report", "report.json", "--message", "x"],
      /--message goes with --template/,
    ],
  ])("override add with %s is a usage error (exit 2) and sends nothing", async (_name, argv, message) => {
    const result = await run("health", "override", "add", "host-1", "--source", "s", ...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Run 'racksmith health override add --help' for usage.");
    expect(service.requests).toEqual([]);
  });

  it("override add without --source is a usage error", async () => {
    const result = await run("health", "override", "add", "host-1", "--template", "maintenance");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--source/);
  });

  it("override remove deletes the source's override; a missing one exits 1 naming it", async () => {
    const removed = await run("health", "override", "remove", "host-1", "--source", "sre", "--json");
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout).overrides).toEqual(HEALTH.overrides);
    expect(service.requests[0]).toMatchObject({
      method: "DELETE",
      url: "/api/v1/machines/host-1/health/overrides/sre",
    });
    const missing = await run("health", "override", "remove", "host-1", "--source", "ghost");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no health override from source "ghost" [health_override_not_found]');
  });
});
