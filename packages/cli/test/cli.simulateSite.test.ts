import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../src/main.js";
import { cli, memoryIo } from "./support/runCliForTest.js";

// The repository's racksmith.yaml: every vendor driver of the workspace.
const CONFIG = fileURLToPath(new URL("../../../racksmith.yaml", import.meta.url));
const flags = ["--config", CONFIG, "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0"];

describe("racksmith simulate --hosts", () => {
  it("with --progress json streams events as the rack comes up and ends with the summary", async () => {
    const run = await cli([
      "simulate",
      "--hosts",
      "3",
      "--until",
      "ready",
      "--timeout",
      "120",
      "--progress",
      "json",
      ...flags,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; [key: string]: unknown });
    expect(events[0]).toMatchObject({ event: "started", hosts: 3, resumed: false, alreadyRegistered: 0 });
    const progress = events.filter((event) => event.event === "progress");
    expect(progress.length).toBeGreaterThan(1);
    // Only changes are events: no two progress lines in a row say the same.
    const said = progress.map(({ ingested, states }) => JSON.stringify([ingested, states]));
    expect(new Set(said).size).toBe(said.length);
    expect(progress.at(-1)).toMatchObject({ ingested: 3, states: { ready: 3 } });
    expect(events.filter((event) => event.event === "ready")).toEqual([
      { event: "ready", hosts: 3, elapsedSeconds: expect.any(Number) },
    ]);
    const summary = events.at(-1) ?? { event: "none" };
    expect(summary).toMatchObject({ event: "summary", hosts: 3, states: { ready: 3 }, stuck: [] });
    // At least the ~20 states of the path to Ready per host, and Redfish calls for every step.
    expect(summary.transitions).toBeGreaterThanOrEqual(3 * 20);
    expect(summary.redfishRequests).toBeGreaterThan(100);
  }, 150_000);

  it("says once when every host is Ready and what to try, and sums the run up when stopped", async () => {
    const dir = await mkdtemp(join(tmpdir(), "racksmith-sim-ready-"));
    try {
      const io = memoryIo(dir);
      const running = runCli(["simulate", "--hosts", "1", ...flags], io);
      const said = () => io.err.join("");
      // A safety net for a stuck run, not a speed bound: the host's path to Ready is what is waited for.
      await vi.waitFor(
        () => expect(said()).toMatch(/All 1 hosts Ready after \d+ s — try: racksmith machine list/),
        {
          timeout: 240_000,
          interval: 100,
        },
      );
      io.stop();
      expect(await running).toBe(0);
      expect(said().match(/All 1 hosts Ready/g)).toHaveLength(1);
      expect(said()).toMatch(/Stopped after \d+ s: 1 ready · \d+ transitions · \d+ Redfish requests\n$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it("lists the stuck hosts with their wait reasons and exits 1 when --timeout passes first (--json: one summary)", async () => {
    const run = await cli([
      "simulate",
      "--hosts",
      "2",
      "--until",
      "ready",
      "--timeout",
      "3",
      "--json",
      ...flags,
    ]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ hosts: 2, resumed: false });
    expect(Object.keys(summary).sort()).toEqual([
      "elapsedSeconds",
      "hosts",
      "redfishRequests",
      "resumed",
      "states",
      "transitions",
    ]);
    // The time said is the time it took, start-up included, beside the timeout that was given.
    expect(run.stderr).toMatch(
      /2 of 2 hosts did not reach ready in \d+ s \(--timeout 3 s, counted from the start/,
    );
    // Each host is either listed with its state and wait, or counted as not ingested yet.
    const listed = run.stderr.match(/^host-\S+\s+\S+\s+(true|false)\s+\S.*$/gm) ?? [];
    const notIngested = Number(/(\d+) not ingested yet/.exec(run.stderr)?.[1] ?? 0);
    expect(listed.length + notIngested).toBe(2);
    if (listed.length > 0) expect(run.stderr).toMatch(/ID\s+STATE\s+ABOVE SLA\s+REASON/);
  }, 60_000);

  it("resumes a site kept with --data-dir, and refuses to run another site in its folder", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "racksmith-simulate-resume-"));
    try {
      // A short --timeout ends each run soon after registration: the runs are about the folder, not Ready.
      const site = ["simulate", "--seed", "3", "--data-dir", dataDir, "--until", "ready", "--timeout", "1"];
      const first = await cli([...site, "--hosts", "1", ...flags]);
      expect(first.stderr).toContain("Simulated site: 1 hosts");
      expect(first.stderr).not.toContain("Resumed");
      const second = await cli([...site, "--hosts", "1", ...flags]);
      expect(second.stderr).toContain(
        `Resumed the simulated site in ${dataDir}: 1 of 1 hosts were already registered`,
      );
      expect(second.stderr).not.toContain("expected_machines_rejected");
      const other = await cli([...site, "--hosts", "2", ...flags]);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(
        `racksmith: ${dataDir} holds another simulated site: hosts 1 (this run: 2) — resume it with the --hosts and --seed it was made with, or start afresh with another --data-dir (or remove ${dataDir}) [simulated_site_mismatch]`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.each([
    [["--hosts", "0"], /--hosts must be a positive integer/],
    [["--hosts", "2", "--until", "assigned"], /--until takes "ready"/],
    [[], /give --hosts N, or a subcommand/],
  ])("refuses %j with a usage error", async (argv, message) => {
    const run = await cli(["simulate", ...argv]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
