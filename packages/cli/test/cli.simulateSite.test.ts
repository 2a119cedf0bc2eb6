import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cli } from "./support/runCliForTest.js";

// The repository's racksmith.yaml: every vendor driver of the workspace.
const CONFIG = fileURLToPath(new URL("../../../racksmith.yaml", import.meta.url));
const flags = ["--config", CONFIG, "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0"];

describe("racksmith simulate --hosts", () => {
  it("runs a simulated rack until every host is Ready and prints one summary object", async () => {
    const run = await cli([
      "simulate",
      "--hosts",
      "3",
      "--until",
      "ready",
      "--timeout",
      "120",
      "--json",
      ...flags,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ hosts: 3, states: { ready: 3 } });
    expect(Object.keys(summary).sort()).toEqual([
      "elapsedSeconds",
      "hosts",
      "redfishRequests",
      "states",
      "transitions",
    ]);
    // At least the ~20 states of the path to Ready per host, and Redfish calls for every step.
    expect(summary.transitions).toBeGreaterThanOrEqual(3 * 20);
    expect(summary.redfishRequests).toBeGreaterThan(100);
  }, 150_000);

  it("lists the stuck hosts with their wait reasons and exits 1 when --timeout passes first", async () => {
    const run = await cli(["simulate", "--hosts", "2", "--until", "ready", "--timeout", "3", ...flags]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/2 of 2 hosts did not reach ready within 3 s/);
    // Each host is either listed with its state and wait, or counted as not ingested yet.
    const listed = run.stderr.match(/^host-\S+\s+\S+\s+(true|false)\s+\S.*$/gm) ?? [];
    const notIngested = Number(/(\d+) not ingested yet/.exec(run.stderr)?.[1] ?? 0);
    expect(listed.length + notIngested).toBe(2);
    if (listed.length > 0) expect(run.stderr).toMatch(/ID\s+STATE\s+ABOVE SLA\s+REASON/);
  }, 60_000);

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
