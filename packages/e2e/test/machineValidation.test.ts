import { runCliInMemory, runCliJson } from "@racksmith/cli";
import type { HealthReport } from "@racksmith/core/health";
import type { InstanceView } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { untilHostLabels } from "./support/hostLabels.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 4;

interface RunJson {
  id: string;
  context: string;
  status: string;
  passed: boolean | null;
  tests: string[];
  results: Array<{
    testId: string;
    exitCode: number | null;
    timedOut: boolean;
    passed: boolean;
    message: string;
  }>;
}

// Acceptance (issue 21, item 3): machine validation tests with @racksmith/validation-host-tests loaded — a
// failing test keeps its host out of Ready with FailedValidationTest naming it, a hanging test is stopped at its
// timeout and reported, an on-demand run on a Ready host stores results the CLI shows, and one on an assigned
// host is refused.
describe.each(E2E_DATABASES)("machine validation of a simulated site on $kind", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  /** Host machine ids and BMC MACs by vendor (the scenario has one host of each). */
  const hosts = new Map<string, { id: string; mac: string }>();
  const host = (vendor: string) => hosts.get(vendor) ?? { id: "", mac: "" };
  const until = (what: string, check: (labels: Map<string, string>) => boolean) =>
    untilHostLabels(site, what, check);
  const allocate = (vendor: string) =>
    cli<InstanceView>("instance", "allocate", "--machine", host(vendor).id, "--tenant", "acme");

  beforeAll(async () => {
    site = await simulatedSite(database, {
      hosts: HOSTS,
      seed: 4,
      plugins: ["@racksmith/validation-host-tests"],
    });
    await until("every host Ready (the built-in tests pass)", (states) => {
      const values = [...states.values()];
      return values.length === HOSTS && values.every((label) => label === "ready");
    });
    const machines = await cli<Array<{ id: string; bmcMac: string }>>("machine", "list");
    for (const bmc of site.fleet.bmcs.filter((b) => b.kind === "host")) {
      hosts.set(bmc.vendor, { id: machines.find((m) => m.bmcMac === bmc.mac)?.id ?? "", mac: bmc.mac });
    }
    // Two site tests for the cleanup after each tenant, verified: one that fails on the Lenovo host, one that
    // hangs on the HPE host until its 2 s timeout stops it.
    await cli(
      "validation",
      "test",
      "add",
      "--id",
      "site_FanCheck",
      "--command",
      "/opt/site/fancheck",
      "--timeout-ms",
      "60000",
      "--context",
      "cleanup",
      "--context",
      "onDemand",
    );
    await cli(
      "validation",
      "test",
      "add",
      "--id",
      "site_Hang",
      "--command",
      "/opt/site/soak",
      "--timeout-ms",
      "2000",
      "--context",
      "cleanup",
    );
    for (const id of ["site_FanCheck", "site_Hang"]) await cli("validation", "test", "verify", id);
    site.agents.setHostTestBehaviour(host("lenovo").mac, "site_FanCheck", "fail");
    site.agents.setHostTestBehaviour(host("hpe").mac, "site_Hang", "hang");
  }, 1_200_000);
  afterAll(async () => {
    await site?.close();
  });

  it("keeps a host whose test fails, or hangs past its timeout, out of Ready, naming the test", async () => {
    const instances = [await allocate("lenovo"), await allocate("hpe")];
    await waitFor(
      async () => {
        const views = await Promise.all(instances.map((i) => cli<InstanceView>("instance", "show", i.id)));
        return views.every((view) => view.status.tenantState === "Ready");
      },
      { what: "both instances Ready", timeoutMs: 900_000, everyMs: 500 },
    );
    for (const instance of instances) await cli("instance", "release", instance.id);
    await until("both hosts failed in their cleanup validation", (states) =>
      ["lenovo", "hpe"].every((vendor) => states.get(host(vendor).id) === "failed"),
    );

    const failedRun = await cli<RunJson>("validation", "results", host("lenovo").id);
    expect(failedRun).toMatchObject({ context: "cleanup", status: "completed", passed: false });
    expect(failedRun.results.find((r) => r.testId === "site_FanCheck")).toMatchObject({
      exitCode: 1,
      passed: false,
      message: expect.stringMatching(/^exit code 1/),
    });
    const health = await cli<HealthReport>("health", "show", host("lenovo").id);
    expect(health.alerts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "FailedValidationTest", target: "site_FanCheck" }),
      ]),
    );

    const hung = await cli<RunJson>("validation", "results", host("hpe").id);
    expect(hung.results.find((r) => r.testId === "site_Hang")).toMatchObject({
      timedOut: true,
      exitCode: null,
      passed: false,
      message: expect.stringMatching(/^stopped at its timeout of 2 s/),
    });
    const machine = await cli<{ lifecycle: { state: { details?: { message?: string } } } }>(
      "machine",
      "show",
      host("hpe").id,
    );
    expect(JSON.stringify(machine)).toContain("site_Hang: stopped at its timeout of 2 s");
  });

  it("runs the tests an operator names on a Ready host, unverified ones too, and keeps their results", async () => {
    const started = await cli<RunJson>(
      "validation",
      "run",
      host("dell").id,
      "--tests",
      "site_FanCheck,racksmith_DefaultTestCase",
    );
    expect(started).toMatchObject({ context: "onDemand", status: "pending" });
    const done = await waitFor(
      async () => {
        const run = await cli<RunJson>("validation", "results", host("dell").id, "--run", started.id);
        return run.status === "completed" && run;
      },
      { what: "the on-demand run", timeoutMs: 900_000, everyMs: 500 },
    );
    expect(done).toMatchObject({ passed: true, tests: ["site_FanCheck", "racksmith_DefaultTestCase"] });
    expect(done.results.map((r) => [r.testId, r.exitCode, r.passed])).toEqual([
      ["site_FanCheck", 0, true],
      ["racksmith_DefaultTestCase", 0, true],
    ]);
    await until("the Dell host Ready again", (states) => states.get(host("dell").id) === "ready");
  });

  it("refuses an on-demand run on an assigned host, saying why", async () => {
    await allocate("supermicro");
    const refused = await runCliInMemory([
      "validation",
      "run",
      host("supermicro").id,
      "--server",
      site.url,
      "--token",
      site.token,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/on-demand validation runs only on Ready hosts without an instance/);
    expect(refused.stderr).toContain("validation_run_not_allowed");
  });
});
