import type { ValidationRunner } from "@racksmith/core";
import { StateEngine } from "@racksmith/core/engine";
import { sql } from "kysely";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/index.js";
import { prometheusMetrics } from "../../metrics/index.js";
import { openTestDatabase, type TestDatabase, waitFor } from "../../testing/index.js";
import { FakeSite } from "../__fixtures__/fakeSite.js";
import type { BomValidation, BomVerdict } from "../bom/index.js";
import { type LifecycleConfig, resolveLifecycleConfig } from "../config.js";
import { invalidTransitions } from "../graph.js";
import type { HostTestRunStatus, HostTestRuns } from "../hostTests/index.js";
import { RebootGovernor } from "../reboot/index.js";
import { managedHostLifecycle } from "./managedHostMachine.js";

let testDb: TestDatabase;
let engine: StateEngine;
let registry: Registry;
let site: FakeSite;
let pumping: NodeJS.Timeout | undefined;

beforeAll(async () => {
  testDb = await openTestDatabase("lifecycle");
});
afterAll(async () => {
  await testDb.close();
});
afterEach(async () => {
  clearInterval(pumping);
  await engine?.stop({ graceMs: 1_000 });
  const { db } = testDb.database;
  await db.deleteFrom("machines").execute();
  await sql`DELETE FROM state_objects`.execute(db);
  await sql`DELETE FROM state_queue`.execute(db);
  await sql`DELETE FROM state_history`.execute(db);
});

async function start(
  config: LifecycleConfig = {},
  runners: ValidationRunner[] = [],
  reboots?: RebootGovernor,
  bomValidation?: BomValidation,
  hostTestRuns?: HostTestRuns,
): Promise<void> {
  const clock = () => new Date();
  site = new FakeSite(testDb.database, () => engine, clock);
  registry = new Registry();
  engine = new StateEngine({
    database: testDb.database,
    metrics: prometheusMetrics(registry),
    machines: [
      managedHostLifecycle({
        config: resolveLifecycleConfig({ powerDownWaitMs: 0, retryIntervalMs: 0, ...config }),
        validationRunners: () => runners,
        forceDeletionHooks: [],
        clock,
        bmcAccess: site.access,
        ...(reboots ? { reboots } : {}),
        ...(bomValidation ? { bomValidation: () => bomValidation } : {}),
        ...(hostTestRuns ? { hostTestRuns: () => hostTestRuns } : {}),
      }),
    ],
    config: { iterationIntervalMs: 500, pollIntervalMs: 20 },
  });
  await engine.start();
  pumping = setInterval(() => void site.pump().catch(() => undefined), 25);
}

const state = (id: string) => engine.getObjectState(MANAGED_HOST_OBJECT_TYPE, id, { historyLimit: 250 });
const labelOf = async (id: string) => (await state(id))?.stateLabel;

async function historyLabels(id: string): Promise<string[]> {
  const view = await state(id);
  const { managedHostStateLabel } = await import("../states.js");
  return (view?.history ?? []).map((h) => managedHostStateLabel(h.state as never)).reverse();
}

/**
 * Waits for the host to show `wanted`. Bounded below the test's timeout only so that a host that never gets there
 * fails naming where it stopped — its state, last outcome and agents' report times — not as a bare timeout.
 */
async function reachState(id: string, wanted: string): Promise<void> {
  try {
    await waitFor(async () => (await labelOf(id)) === wanted, {
      timeoutMs: 100_000,
      what: `${id} in ${wanted}`,
    });
  } catch (error) {
    const view = await state(id);
    const reports = await testDb.database.db.selectFrom("machine_reports").selectAll().execute();
    throw new Error(
      `${(error as Error).message}: it is in ${view?.stateLabel} (entered ${view?.enteredAt}), ` +
        `last outcome ${JSON.stringify(view?.outcome)}; reports ${JSON.stringify(reports)}`,
    );
  }
}

// The waits are bounded by the test timeout alone (a safety net for a busy machine); a wait for a state stops a
// little before it, to say where the host stopped.
describe("managed-host lifecycle", { timeout: 120_000 }, () => {
  beforeEach(async () => {
    await start();
  });

  it("takes a host with two DPUs from ingestion to Ready along the declared path", async () => {
    await site.addHost("host-1", ["dpu-1a", "dpu-1b"]);
    await reachState("host-1", "ready");
    const labels = await historyLabels("host-1");
    expect(invalidTransitions(labels)).toEqual([]);
    expect(labels).toEqual([
      "created",
      "dpuDiscovering/enableRshim",
      "dpuDiscovering/configureSecureBoot",
      "dpuDiscovering/setUefiHttpBoot",
      "dpuDiscovering/rebootAllDpus",
      "dpuInit/waitingForDiscovery",
      "dpuInit/powerCycleHostOff",
      "dpuInit/powerCycleHostOn",
      "dpuInit/waitingForPlatformConfiguration",
      "dpuInit/pollingBiosSetup",
      "dpuInit/waitingForNetworkConfig",
      "hostInit/disableLockdown",
      "hostInit/machineSetup",
      "hostInit/pollingBiosSetup",
      "hostInit/setBootOrder",
      "hostInit/checkBootOrder",
      "hostInit/waitingForDiscovery",
      "hostInit/enableLockdown",
      "hostInit/waitingForDpusUp",
      "hostInit/pollingLockdownStatus",
      "validation/discovery",
      "discovered",
      "ready",
    ]);
    const dpu = site.bmcs.get("dpu-1a");
    expect(dpu?.calls).toEqual(
      expect.arrayContaining(["enableRshim", "bootOnce:uefiHttp", "machineSetup", "power:ForceRestart"]),
    );
    expect(site.bmcs.get("host-1")?.calls).toContain("setBootOrderDpuFirst:02:00:00:00:01:02");
    expect(site.bmcs.get("host-1")?.lockdown).toBe(true);
  });

  it("runs an instance: tenant network, Ready, release through the admin network to cleanup and back", async () => {
    await site.addHost("host-2", ["dpu-2a"]);
    await reachState("host-2", "ready");
    const now = new Date();
    await testDb.database.db
      .insertInto("instances")
      .values({
        id: "i-1",
        name: "i-1",
        machine_id: "host-2",
        tenant_org: "acme",
        instance_type: null,
        config: JSON.stringify({ network: { interfaces: [{ function: "pf0", network: "t" }] } }),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-2");
    await reachState("host-2", "assigned/ready");
    const assigned = await testDb.database.db
      .selectFrom("managed_hosts")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(assigned.use_admin_network).toBe(false);

    await testDb.database.db.updateTable("instances").set({ release_requested_at: new Date() }).execute();
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-2");
    await reachState("host-2", "ready");
    const labels = await historyLabels("host-2");
    expect(invalidTransitions(labels)).toEqual([]);
    const tail = labels.slice(labels.indexOf("assigned/ready") + 1);
    expect(tail).toEqual([
      "assigned/powerCycleOff",
      "assigned/powerCycleOn",
      "assigned/unlockHost",
      "assigned/bootingWithDiscoveryImage",
      "assigned/switchToAdminNetwork",
      "assigned/waitingForNetworkReconfig",
      "waitingForCleanup/hostCleanup",
      "waitingForCleanup/lockHost",
      "validation/cleanup",
      "discovered",
      "ready",
    ]);
    const released = await testDb.database.db
      .selectFrom("managed_hosts")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(released.use_admin_network).toBe(true);
    const instance = await testDb.database.db.selectFrom("instances").selectAll().executeTakeFirstOrThrow();
    expect(instance.terminated_at).not.toBeNull();
  });

  it("fails a host whose BMC rejects machine setup after the bounded retries, naming the cause", async () => {
    await site.addHost("host-3", ["dpu-3a"]);
    site.bmc({ id: "host-3" } as never);
    (site.bmcs.get("host-3") as NonNullable<ReturnType<typeof site.bmcs.get>>).failMachineSetup =
      "400 Bad Request: PropertyValueNotInList BootMode";
    await reachState("host-3", "failed");
    const view = await state("host-3");
    expect(view?.state).toMatchObject({
      state: "failed",
      details: {
        cause: "machineSetup",
        source: "stateMachine/hostInit",
        failedIn: "hostInit/machineSetup",
        message: expect.stringContaining("PropertyValueNotInList"),
      },
    });
    expect(view?.sla.aboveSla).toBe(true);
    const labels = await historyLabels("host-3");
    expect(labels.filter((l) => l === "hostInit/machineSetup")).toHaveLength(3);
    expect(invalidTransitions(labels)).toEqual([]);
  });

  it("boots UEFI HTTP first on a BMC whose boot options name no MAC, and goes on to Ready", async () => {
    await site.addHost("host-5", ["dpu-5a"]);
    site.bmc({ id: "host-5" } as never);
    (site.bmcs.get("host-5") as NonNullable<ReturnType<typeof site.bmcs.get>>).bootOptionsWithoutMac = true;
    await reachState("host-5", "ready");
    const calls = site.bmcs.get("host-5")?.calls ?? [];
    expect(calls).toEqual(
      expect.arrayContaining([expect.stringMatching(/^setBootOrderDpuFirst:02:00:00:00:01:/)]),
    );
    expect(calls).toContain("bootFirst:uefiHttp");
    const labels = await historyLabels("host-5");
    expect(labels.filter((l) => l === "hostInit/setBootOrder")).toHaveLength(1);
    expect(invalidTransitions(labels)).toEqual([]);
  });

  it("force-deletes a host in any state with its DPUs and records", async () => {
    await site.addHost("host-4", ["dpu-4a"]);
    site.silentDpus.add("dpu-4a");
    await reachState("host-4", "dpuInit/waitingForNetworkConfig");
    await testDb.database.db
      .insertInto("managed_hosts")
      .values({ host_id: "host-4", force_delete_requested_at: new Date(), updated_at: new Date() })
      .onConflict((oc) => oc.column("host_id").doUpdateSet({ force_delete_requested_at: new Date() }))
      .execute();
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-4");
    await waitFor(async () => (await state("host-4")) === undefined, { timeoutMs: Number.POSITIVE_INFINITY });
    const left = await testDb.database.db.selectFrom("machines").select("id").execute();
    expect(left).toEqual([]);
  });
});

describe("the site-wide reboot cap", () => {
  it("holds power actions back as waits naming the cap, never sends them, and the host still reaches Ready", async () => {
    const governor = new RebootGovernor({
      maxRebootsPerMinute: 0,
      maxRebootsInFlight: 1,
      rebootSettleMs: 1_000,
    });
    await start({}, [], governor);
    const held = new Set<string>();
    // Two DPUs restart together in DPU init: with one reboot in flight at a time, one of them waits.
    await site.addHost("host-c", ["dpu-ca", "dpu-cb"]);
    await waitFor(
      async () => {
        const reason = (await state("host-c"))?.outcome?.reason;
        if (reason?.includes("held back")) held.add(reason);
        return (await labelOf("host-c")) === "ready";
      },
      { timeoutMs: Number.POSITIVE_INFINITY, intervalMs: "immediate" },
    );
    expect(governor.stats().held).toBeGreaterThan(0);
    for (const reason of held) expect(reason).toContain("site-wide cap of 1 reboots in flight reached");
    // Every power action the BMCs got went through the governor (power-ons that end a cycle are never held).
    const sent = [...site.bmcs.values()]
      .flatMap((bmc) => bmc.calls)
      .filter((call) => /^power:(?!On)/.test(call));
    const { required, retry } = governor.stats();
    expect(sent).toHaveLength(required + retry);
    expect(invalidTransitions(await historyLabels("host-c"))).toEqual([]);
    // A safety net for a busy machine: every held reboot waits for the next run.
  }, 180_000);
});

// The waits are bounded by the test timeout alone (a safety net for a busy machine); a wait for a state stops a
// little before it, to say where the host stopped.
describe("waits and SLAs", { timeout: 120_000 }, () => {
  it("keeps a host whose DPU agent never reports waiting with the reason, above SLA", async () => {
    await start({ slaMs: { dpuInit: 300 } });
    site.silentDpus.add("dpu-5a");
    await site.addHost("host-5", ["dpu-5a"]);
    await reachState("host-5", "dpuInit/waitingForNetworkConfig");
    await waitFor(async () => (await state("host-5"))?.sla.aboveSla === true, {
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    const view = await state("host-5");
    expect(view?.outcome).toMatchObject({
      kind: "wait",
      reason: expect.stringContaining("dpu-5a: no report from its DPU agent"),
    });
    const aboveSla = async () => {
      const text = await registry.metrics();
      return /objects_above_sla\{object_type="managed-host",state="dpuInit\/waitingForNetworkConfig"\} 1/.test(
        text,
      );
    };
    expect(await aboveSla()).toBe(true);

    // Health says the host is out of the SLA's reach (ExcludeFromStateMachineSla): no SLA, not counted above it.
    await testDb.database.db
      .insertInto("machine_health")
      .values({
        machine_id: "host-5",
        aggregate: JSON.stringify({
          source: "aggregate-host-health",
          successes: [],
          alerts: [{ id: "Maintenance", message: "m", classifications: ["ExcludeFromStateMachineSla"] }],
        }),
        updated_at: new Date(),
      })
      .execute();
    expect((await state("host-5"))?.sla).toEqual({ slaMs: null, aboveSla: false });
    // The gauges reuse one database sample for a second.
    await waitFor(async () => !(await aboveSla()), { timeoutMs: Number.POSITIVE_INFINITY });
  });

  it("fails validation when a configured runner fails the host", async () => {
    const runner: ValidationRunner = {
      name: "burn-in",
      run: async () => ({
        passed: false,
        results: [{ name: "memtest", passed: false, message: "ECC errors", durationMs: 5 }],
      }),
    };
    await start({}, [runner]);
    await site.addHost("host-6", []);
    await reachState("host-6", "failed");
    expect((await state("host-6"))?.state).toMatchObject({
      details: { cause: "validation", message: expect.stringContaining("burn-in/memtest: ECC errors") },
    });
  });

  it("holds a host in BOM validation until its verdict passes; a verify request goes through a fresh inventory", async () => {
    let verdict: BomVerdict = { kind: "waitingForSkuAssignment" };
    let requestedAt: Date | null = null;
    const contexts: string[] = [];
    await start({}, [], undefined, {
      evaluate: async ({ context }) => {
        contexts.push(context);
        return verdict;
      },
      verifyRequestedAt: async () => requestedAt,
    });
    const until = (label: string) => reachState("host-7", label);
    const enqueue = () => engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-7");
    await site.addHost("host-7", []);
    await until("bomValidating/waitingForSkuAssignment");
    const failed: BomVerdict = {
      kind: "skuVerificationFailed",
      skuId: "s.1",
      mismatches: [{ component: "gpu", message: "gpu H100: expected 4, found 3" }],
    };
    // An assignment: the waiting host is checked again on its next run.
    verdict = failed;
    await enqueue();
    await until("bomValidating/skuVerificationFailed");
    // Its next run waits there, saying what differs.
    await waitFor(
      async () => ((await state("host-7"))?.outcome?.reason ?? "").includes("gpu H100: expected 4, found 3"),
      {
        timeoutMs: Number.POSITIVE_INFINITY,
      },
    );

    verdict = { kind: "passed", skuId: "s.1" };
    requestedAt = new Date();
    await enqueue();
    await until("ready");
    expect((await historyLabels("host-7")).slice(-7)).toEqual([
      "bomValidating/waitingForSkuAssignment",
      "bomValidating/skuVerificationFailed",
      "bomValidating/updatingInventory",
      "bomValidating/verifyingSku",
      "validation/discovery",
      "discovered",
      "ready",
    ]);

    // On a Ready host, a verify request that fails keeps it out of Ready; the next one that passes brings it back.
    verdict = failed;
    requestedAt = new Date();
    await enqueue();
    await until("bomValidating/skuVerificationFailed");
    expect((await state("host-7"))?.state).toMatchObject({ context: "onDemand" });
    verdict = { kind: "passed", skuId: "s.1" };
    requestedAt = new Date();
    await enqueue();
    await until("ready");
    const labels = await historyLabels("host-7");
    expect(invalidTransitions(labels)).toEqual([]);
    expect(labels.slice(-7)).toEqual([
      "ready",
      "bomValidating/updatingInventory",
      "bomValidating/verifyingSku",
      "bomValidating/skuVerificationFailed",
      "bomValidating/updatingInventory",
      "bomValidating/verifyingSku",
      "ready",
    ]);
    expect(new Set(contexts)).toEqual(new Set(["discovery", "onDemand"]));
  });

  /** A fake of the host tests: a pending run per host and context until the test completes it. */
  function fakeHostTests() {
    const runs = new Map<string, HostTestRunStatus>();
    const requested = { onDemand: false };
    const fake = {
      requested,
      complete(key: string, passed: boolean) {
        runs.set(key, {
          runId: key,
          status: "completed",
          result: {
            context: "x",
            passed,
            runBy: "host-tests",
            results: [
              { name: "site_Fans", passed, message: passed ? "exit code 0" : "exit code 3", durationMs: 5 },
            ],
          },
          unschedulable: [],
        });
      },
      runs: {
        ensureRun: async ({ hostId, context }) => {
          const key = `${hostId}/${context}`;
          if (!runs.has(key)) runs.set(key, { runId: key, status: "pending", tests: 1 });
          return runs.get(key) ?? null;
        },
        pendingRun: async () => null,
        recordOutcomes: async () => {
          throw new Error("not used");
        },
        onDemandRequested: async () => requested.onDemand,
      } satisfies HostTestRuns,
    };
    return fake;
  }

  it("waits for the host agent's run of host tests; a failed test fails the host", async () => {
    const hostTests = fakeHostTests();
    await start({}, [], undefined, undefined, hostTests.runs);
    await site.addHost("host-8", []);
    // The state's first run makes the run and waits for it, saying so.
    await waitFor(
      async () =>
        /waiting for the host agent to run 1 validation test/.test(
          (await state("host-8"))?.outcome?.reason ?? "",
        ),
      { timeoutMs: Number.POSITIVE_INFINITY },
    );
    hostTests.complete("host-8/discovery", false);
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-8");
    await reachState("host-8", "failed");
    expect((await state("host-8"))?.state).toMatchObject({
      details: { cause: "validation", message: expect.stringContaining("site_Fans: exit code 3") },
    });
  });

  it("takes a Ready host through an operator's on-demand run and back to Ready, whatever its verdict", async () => {
    const hostTests = fakeHostTests();
    await start({}, [], undefined, undefined, hostTests.runs);
    hostTests.complete("host-9/discovery", true);
    await site.addHost("host-9", []);
    await reachState("host-9", "ready");
    hostTests.requested.onDemand = true;
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-9");
    await reachState("host-9", "validation/onDemand");
    hostTests.requested.onDemand = false;
    hostTests.complete("host-9/onDemand", false);
    await engine.enqueue(MANAGED_HOST_OBJECT_TYPE, "host-9");
    await reachState("host-9", "ready");
    const labels = await historyLabels("host-9");
    expect(invalidTransitions(labels)).toEqual([]);
    expect(labels.slice(-4)).toEqual(["discovered", "ready", "validation/onDemand", "ready"]);
  });
});
