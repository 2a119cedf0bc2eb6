import { silentLogger } from "@racksmith/core";
import type { HandlerContext } from "@racksmith/core/engine";
import { describe, expect, it } from "vitest";
import type { MachineRow } from "../../explorer/index.js";
import { FakeBmc } from "../__fixtures__/fakeSite.js";
import { resolveLifecycleConfig } from "../config.js";
import type { MachineReports, ManagedHostSnapshot } from "../machine/snapshot.js";
import { Step } from "../machine/step.js";
import type { ManagedHostState } from "../states.js";
import type { RebootRequest } from "../tables.js";
import { handleDpuInit } from "./dpuInit.js";

/** dpuInit/waitingForDiscovery run against fake BMCs and a fixed clock: what each run does to each DPU. */

const MINUTE = 60_000;
const ENTERED = new Date("2025-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(ENTERED.getTime() + ms);
const CONFIG = resolveLifecycleConfig({
  failureRetryTimeMs: 2 * MINUTE,
  rebootBackoffFactor: 1,
  maxRebootCycles: 5,
});

function machine(id: string, kind: "host" | "dpu"): MachineRow {
  return {
    id,
    kind,
    serial: `SN-${id}`,
    bmc_address: `bmc-${id}`,
    bmc_mac: "02:00:00:00:00:01",
    host_id: kind === "dpu" ? "host-1" : null,
    host_facing_mac: null,
    primary_dpu: id === "dpu-a",
    vendor: "test",
    model: "test",
    created_at: ENTERED,
  };
}

interface DpuSetup {
  /** When its agent last reported discovery (ms from the state entry). */
  discoveredAt?: number;
  /** The last reboot the lifecycle recorded for it (ms from the state entry). */
  lastReboot?: { at: number; action: RebootRequest["action"]; cycle?: number };
}

interface Run {
  outcome: Awaited<ReturnType<typeof handleDpuInit>>;
  bmcs: Map<string, FakeBmc>;
  /** The boot override each DPU's boots used, in order. */
  boots: Map<string, Array<string | undefined>>;
  deferred: number;
}

/** One handler run in waitingForDiscovery at `now` (ms from the state entry). */
async function runAt(now: number, dpus: Record<string, DpuSetup>): Promise<Run> {
  const host = machine("host-1", "host");
  const rows = Object.keys(dpus).map((id) => machine(id, "dpu"));
  const reports = new Map<string, MachineReports>();
  for (const [id, setup] of Object.entries(dpus)) {
    reports.set(id, {
      machine_id: id,
      discovery_completed_at: setup.discoveredAt === undefined ? null : at(setup.discoveredAt),
      last_reboot_request: setup.lastReboot
        ? { ...setup.lastReboot, at: at(setup.lastReboot.at).toISOString() }
        : null,
    } as MachineReports);
  }
  const snapshot: ManagedHostSnapshot = {
    host,
    dpus: rows,
    useAdminNetwork: true,
    networkConfigVersion: 1,
    forceDeleteRequestedAt: null,
    reports,
    instance: undefined,
  };
  const state: Extract<ManagedHostState, { state: "dpuInit" }> = {
    state: "dpuInit",
    dpus: Object.fromEntries(rows.map((row) => [row.id, "waitingForDiscovery"])),
  };
  let deferred = 0;
  const context: HandlerContext<ManagedHostState> = {
    id: host.id,
    state,
    version: 7,
    enteredAt: ENTERED,
    timeInStateMs: now,
    signal: new AbortController().signal,
    logger: silentLogger,
    defer: () => {
      deferred++;
    },
    enqueue: () => undefined,
  };
  const bmcs = new Map<string, FakeBmc>();
  const boots = new Map<string, Array<string | undefined>>();
  const bmcOf = async (row: MachineRow) => {
    let bmc = bmcs.get(row.id);
    if (!bmc) {
      bmc = new FakeBmc(
        row,
        (booted) => {
          // A boot uses the one-time override and spends it, as a BMC does.
          boots.set(row.id, [...(boots.get(row.id) ?? []), booted.bootOverride]);
          booted.bootOverride = undefined;
        },
        () => undefined,
      );
      bmcs.set(row.id, bmc);
    }
    return bmc;
  };
  const step = new Step(
    snapshot,
    context,
    {
      config: CONFIG,
      validationRunners: () => [],
      forceDeletionHooks: [],
      clock: () => at(now),
      hostHealth: async () => ({ source: "aggregate-host-health", successes: [], alerts: [] }),
    },
    bmcOf,
  );
  const outcome = await handleDpuInit(step, state);
  return { outcome, bmcs, boots, deferred };
}

const HTTP_BOOT_AND_RESTART = ["bootOnce:uefiHttp", "power:ForceRestart"];

describe("dpuInit/waitingForDiscovery", () => {
  const cases: Array<{
    name: string;
    now: number;
    dpu: DpuSetup;
    calls: string[];
    reason: RegExp;
  }> = [
    {
      name: "first run: sets the HTTP boot and restarts the DPU (the kick)",
      now: 1_000,
      dpu: {},
      calls: HTTP_BOOT_AND_RESTART,
      reason: /boot once uefiHttp, ForceRestart of dpu-a, cycle 0/,
    },
    {
      name: "the kick's record was lost to a crash: the repeated kick sets the HTTP boot again",
      now: 20_000,
      dpu: {},
      calls: HTTP_BOOT_AND_RESTART,
      reason: /boot once uefiHttp, ForceRestart of dpu-a, cycle 0/,
    },
    {
      name: "past the cycle time with no report: sets the HTTP boot again before the restart",
      now: 3 * MINUTE + 1_000,
      dpu: { lastReboot: { at: MINUTE, action: "ForceRestart" } },
      calls: HTTP_BOOT_AND_RESTART,
      reason: /boot once uefiHttp, ForceRestart of dpu-a, cycle 1/,
    },
    {
      name: "a report from before the state entry does not count: the cycle reinstalls",
      now: 5 * MINUTE,
      dpu: { discoveredAt: -10_000, lastReboot: { at: 2 * MINUTE, action: "ForceRestart", cycle: 1 } },
      calls: HTTP_BOOT_AND_RESTART,
      reason: /boot once uefiHttp, ForceRestart of dpu-a, cycle 2/,
    },
    {
      name: "before the cycle is due: nothing is sent",
      now: 2 * MINUTE,
      dpu: { lastReboot: { at: MINUTE, action: "ForceRestart" } },
      calls: [],
      reason: /next reboot at/,
    },
  ];

  it.each(cases)("$name", async ({ now, dpu, calls, reason }) => {
    const run = await runAt(now, { "dpu-a": dpu });
    expect(run.outcome).toEqual({ kind: "wait", reason: expect.stringMatching(reason) });
    expect(run.bmcs.get("dpu-a")?.calls ?? []).toEqual(calls);
    if (calls.length > 0) {
      // The restart booted over HTTP (into the installer) and its request is recorded with the outcome.
      expect(run.boots.get("dpu-a")).toEqual(["uefiHttp"]);
      expect(run.deferred).toBe(1);
    } else {
      expect(run.deferred).toBe(0);
    }
  });

  it("restarts only the DPUs that have not reported since the state entry", async () => {
    const run = await runAt(3 * MINUTE + 1_000, {
      "dpu-a": { discoveredAt: 30_000, lastReboot: { at: MINUTE, action: "ForceRestart" } },
      "dpu-b": { lastReboot: { at: MINUTE, action: "ForceRestart" } },
    });
    expect(run.outcome.kind).toBe("wait");
    expect(run.bmcs.get("dpu-a")).toBeUndefined();
    expect(run.bmcs.get("dpu-b")?.calls).toEqual(HTTP_BOOT_AND_RESTART);
    expect(run.boots.get("dpu-b")).toEqual(["uefiHttp"]);
  });

  it("moves on without touching a BMC once every DPU reported since the state entry", async () => {
    const run = await runAt(3 * MINUTE + 1_000, {
      "dpu-a": { discoveredAt: 3 * MINUTE, lastReboot: { at: MINUTE, action: "ForceRestart" } },
    });
    expect(run.outcome).toEqual({
      kind: "transition",
      next: { state: "dpuInit", dpus: { "dpu-a": "powerCycleHostOff" } },
    });
    expect(run.bmcs.size).toBe(0);
  });

  it("fails the host without a restart once the reboot cycles are exhausted", async () => {
    const run = await runAt(10 * MINUTE + 1_000, {
      "dpu-a": { lastReboot: { at: 8 * MINUTE, action: "ForceRestart", cycle: 4 } },
    });
    expect(run.outcome).toMatchObject({
      kind: "transition",
      next: { state: "failed", details: { cause: "dpuInit", failedIn: "dpuInit/waitingForDiscovery" } },
    });
    expect(run.bmcs.size).toBe(0);
  });
});
