import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MANAGED_HOST_GRAPH } from "@racksmith/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { endedByText, formatDuration } from "../src/commands/machineLifecycle.js";
import { FakeService } from "./support/fakeService.js";
import { cli } from "./support/runCliForTest.js";

const BASE = {
  id: "host-1",
  kind: "host",
  state: "hostInit",
  bmcAddress: "10.0.0.5",
  bmcMac: "02:00:00:00:01:01",
  serial: "SN1",
  dpus: ["dpu-1"],
  primaryDpu: "dpu-1",
  vendor: "Dell",
  model: "PowerEdge R750",
  hostFacingMac: null,
  createdAt: "2025-01-02T00:00:00.000Z",
  history: [
    {
      state: "hostInit",
      label: "hostInit/machineSetup",
      version: 3,
      enteredAt: "2025-01-02T00:10:00.000Z",
      slaMs: 1_800_000,
    },
    {
      state: "hostInit",
      label: "hostInit/disableLockdown",
      version: 2,
      enteredAt: "2025-01-02T00:05:00.000Z",
      slaMs: 240_000,
      exitOutcome: {
        kind: "wait",
        reason: "waiting for the BMC to leave lockdown",
        at: "2025-01-02T00:09:00Z",
      },
    },
    {
      state: "created",
      label: "created",
      version: 1,
      enteredAt: "2025-01-02T00:00:00.000Z",
      slaMs: null,
      exitOutcome: { kind: "transition", at: "2025-01-02T00:00:00.000Z" },
    },
  ],
};
const WAITING = {
  ...BASE,
  lifecycle: {
    stateLabel: "hostInit/machineSetup",
    state: { state: "hostInit", step: { step: "machineSetup", retryCount: 1 } },
    enteredAt: "2025-01-02T00:10:00.000Z",
    timeInStateMs: 3_723_000,
    sla: { slaMs: 1_800_000, aboveSla: true },
    outcome: { kind: "wait", reason: "waiting for the BIOS job JID_1", at: "2025-01-02T01:12:00.000Z" },
    failure: null,
  },
};
const FAILED = {
  ...BASE,
  id: "host-2",
  state: "failed",
  lifecycle: {
    stateLabel: "failed",
    state: { state: "failed" },
    enteredAt: "2025-01-02T02:00:00.000Z",
    timeInStateMs: 5_000,
    sla: { slaMs: null, aboveSla: false },
    outcome: {
      kind: "error",
      error: { code: "redfish_timeout", message: "BMC did not answer" },
      at: "2025-01-02T02:00:05.000Z",
    },
    failure: {
      cause: "machineSetup",
      source: "stateMachine/hostInit",
      message: "machine setup failed 3 times",
      failedAt: "2025-01-02T02:00:00.000Z",
      failedIn: "hostInit/machineSetup",
    },
  },
};

describe("racksmith machine show / force-delete (against a fake service)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-lifecycle-"));
  let service: FakeService;
  const run = (...argv: string[]) => cli([...argv, "--server", service.url], dir);

  beforeAll(async () => {
    service = await FakeService.start({
      "GET /api/v1/machines/host-1": { status: 200, body: WAITING },
      "GET /api/v1/machines/host-2": { status: 200, body: FAILED },
      "GET /api/v1/machines/host-3": { status: 200, body: { ...BASE, id: "host-3", lifecycle: null } },
      "POST /api/v1/machines/host-1/force-delete": { status: 202, body: { hostId: "host-1" } },
      "POST /api/v1/machines/host-9/force-delete": FakeService.error(
        404,
        "machine_not_found",
        "no machine host-9",
      ),
    });
  });
  afterAll(() => service.close());
  beforeEach(() => service.reset());

  it("show keeps the machine record and its one-line history, and adds the lifecycle block", async () => {
    const result = await run("machine", "show", "host-1");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^vendor\s+Dell$/m);
    expect(result.stdout).toMatch(/^history\s+2025-01-02T00:10:00.000Z hostInit \(v3\), /m);
    expect(result.stdout).toContain("\nlifecycle:\n");
    expect(result.stdout).toMatch(/^ {2}state\s+hostInit\/machineSetup$/m);
    expect(result.stdout).toMatch(/^ {2}timeInState\s+1h 02m \(since 2025-01-02T00:10:00.000Z\)$/m);
    expect(result.stdout).toMatch(/^ {2}sla\s+30m 00s — ABOVE SLA$/m);
    expect(result.stdout).toMatch(
      /^ {2}lastOutcome\s+wait \(waiting for the BIOS job JID_1\) at 2025-01-02T01:12:00.000Z$/m,
    );
    expect(result.stdout).not.toMatch(/failure/);
    expect(result.stdout).not.toMatch(/VERSION/);
    expect(service.requests).toEqual([{ method: "GET", url: "/api/v1/machines/host-1", body: undefined }]);
  });

  it("show --history adds the history table (how long each state lasted, its SLA, what ended it) instead of the one-liner", async () => {
    const result = await run("machine", "show", "host-1", "--history");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^history\s+2025/m);
    const table = result.stdout.slice(result.stdout.indexOf("\nhistory:\n"));
    // The current state lasted its time in state (1h 02m 03s) so far; v2 lasted 5 min against a 4-min SLA.
    expect(
      table
        .split("\n")
        .slice(2, 6)
        .map((line) => line.trimEnd()),
    ).toEqual([
      "  VERSION  ENTERED AT                LABEL                     LASTED           SLA                  ENDED BY",
      "  3        2025-01-02T00:10:00.000Z  hostInit/machineSetup     1h 02m (so far)  30m 00s — ABOVE SLA",
      "  2        2025-01-02T00:05:00.000Z  hostInit/disableLockdown  5m 00s           4m 00s — ABOVE SLA   after waiting: waiting for the BMC to leave lockdown",
      "  1        2025-01-02T00:00:00.000Z  created                   5m 00s           none                 moved on at once",
    ]);
  });

  it("show names a failure's cause, source and message, and the last error", async () => {
    const result = await run("machine", "show", "host-2");
    expect(result.stdout).toMatch(/^ {2}sla\s+none$/m);
    expect(result.stdout).toMatch(/^ {2}lastOutcome\s+error \(redfish_timeout: BMC did not answer\)/m);
    expect(result.stdout).toMatch(
      /^ {2}failure\s+machineSetup from stateMachine\/hostInit: machine setup failed 3 times \(in hostInit\/machineSetup at 2025-01-02T02:00:00.000Z\)$/m,
    );
  });

  it("show says when there is no lifecycle yet; --json prints the API object as it is", async () => {
    expect((await run("machine", "show", "host-3")).stdout).toContain("lifecycle: none");
    expect(JSON.parse((await run("machine", "show", "host-2", "--json", "--history")).stdout)).toEqual(
      FAILED,
    );
  });

  it("force-delete needs --yes (usage error, nothing sent), then asks the service", async () => {
    const refused = await run("machine", "force-delete", "host-1");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/add --yes to confirm/);
    expect(service.requests).toEqual([]);

    const done = await run("machine", "force-delete", "host-1", "--yes");
    expect(done).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("force deletion of host-1 requested"),
    });
    expect(service.requests).toEqual([
      { method: "POST", url: "/api/v1/machines/host-1/force-delete", body: undefined },
    ]);
    expect(JSON.parse((await run("machine", "force-delete", "host-1", "--yes", "--json")).stdout)).toEqual({
      hostId: "host-1",
    });
    const missing = await run("machine", "force-delete", "host-9", "--yes");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[machine_not_found]");
  });
});

describe("racksmith lifecycle diagram (local, no service)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-diagram-"));

  it("prints Mermaid by default, naming every state", async () => {
    const result = await cli(["lifecycle", "diagram"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^stateDiagram-v2\n/);
    for (const node of MANAGED_HOST_GRAPH.nodes) expect(result.stdout).toContain(node.id.replace("/", "_"));
  });

  it("prints or writes SVG", async () => {
    const printed = await cli(["lifecycle", "diagram", "--format", "svg"], dir);
    expect(printed.stdout).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>\n$/);
    const written = await cli(["lifecycle", "diagram", "--out", "lifecycle.svg"], dir);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`wrote svg diagram to ${join(dir, "lifecycle.svg")}`);
    expect(readFileSync(join(dir, "lifecycle.svg"), "utf8")).toBe(printed.stdout);
    await cli(["lifecycle", "diagram", "--format", "mermaid", "--out", "lifecycle.mmd"], dir);
    expect(readFileSync(join(dir, "lifecycle.mmd"), "utf8")).toMatch(/^stateDiagram-v2/);
  });

  it("is what docs/lifecycle.md embeds (the diagram there is generated, not drawn)", async () => {
    const run = await cli(["lifecycle", "diagram", "--format", "mermaid"]);
    const page = readFileSync(new URL("../../../docs/lifecycle.md", import.meta.url), "utf8");
    const embedded = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1];
    expect(embedded?.trim()).toBe(run.stdout.trim());
  });

  it("refuses an unknown format (exit 2)", async () => {
    const result = await cli(["lifecycle", "diagram", "--format", "png"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/png/);
    expect(result.stderr).toContain("Run 'racksmith lifecycle diagram --help' for usage.");
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [59_999, "59s"],
    [61_000, "1m 01s"],
    [3_723_000, "1h 02m"],
    [90_000_000, "1d 01h"],
  ])("%d ms → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe("what ended a state, as the history table says it", () => {
  const at = "2025-01-02T00:00:00.000Z";
  it.each([
    [null, ""],
    [undefined, ""],
    [{ kind: "wait", reason: "waiting for the DPU agent", at }, "after waiting: waiting for the DPU agent"],
    [
      { kind: "error", error: { code: "redfish_timeout", message: "BMC did not answer" }, at },
      "error redfish_timeout: BMC did not answer",
    ],
    [{ kind: "transition", at }, "moved on at once"],
    [{ kind: "doNothing", at }, "idle until a request moved it"],
  ])("%j reads %j", (outcome, text) => {
    expect(endedByText(outcome)).toBe(text);
  });
});
