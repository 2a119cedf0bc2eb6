import { silentLogger } from "@racksmith/core";
import type { HandlerContext } from "@racksmith/core/engine";
import { describe, expect, it } from "vitest";
import type { MachineRow } from "../../explorer/index.js";
import { FakeBmc } from "../__fixtures__/fakeSite.js";
import { resolveLifecycleConfig } from "../config.js";
import type { MachineReports, ManagedHostSnapshot } from "../machine/snapshot.js";
import { Step } from "../machine/step.js";
import type { ManagedHostState } from "../states.js";
import { handleDpuInit } from "./dpuInit.js";
import { handleHostInit } from "./hostInit.js";

/**
 * When a waiting host asks to be run again: after `bmcPollIntervalMs` while it waits on its BMC, when its
 * timer ends for a power-down or a retry interval, and not at all (the agent's report enqueues it) while it
 * waits on an agent. The engine's periodic run is then only the safety net.
 */

const ENTERED = new Date("2025-01-01T00:00:00.000Z");
const CONFIG = resolveLifecycleConfig({
  bmcPollIntervalMs: 7_000,
  powerDownWaitMs: 500,
  retryIntervalMs: 60_000,
});

function machine(id: string, kind: "host" | "dpu"): MachineRow {
  return {
    id,
    kind,
    serial: `SN-${id}`,
    bmc_address: `bmc-${id}`,
    bmc_mac: `02:00:00:00:00:0${kind === "host" ? 1 : 2}`,
    host_id: kind === "dpu" ? "host-1" : null,
    host_facing_mac: null,
    primary_dpu: kind === "dpu",
    vendor: "test",
    model: "test",
    created_at: ENTERED,
  };
}

async function runAt(
  state: ManagedHostState,
  nowMs: number,
  setUp: (bmc: FakeBmc) => void = () => undefined,
) {
  const host = machine("host-1", "host");
  const dpu = machine("dpu-1", "dpu");
  const snapshot: ManagedHostSnapshot = {
    host,
    dpus: [dpu],
    useAdminNetwork: true,
    networkConfigVersion: 1,
    forceDeleteRequestedAt: null,
    reports: new Map<string, MachineReports>(),
    instance: undefined,
  };
  const now = new Date(ENTERED.getTime() + nowMs);
  const context: HandlerContext<ManagedHostState> = {
    id: host.id,
    state,
    version: 3,
    enteredAt: ENTERED,
    timeInStateMs: nowMs,
    signal: new AbortController().signal,
    logger: silentLogger,
    defer: () => undefined,
    enqueue: () => undefined,
  };
  const bmcs = new Map<string, FakeBmc>();
  const bmcOf = async (row: MachineRow) => {
    let bmc = bmcs.get(row.id);
    if (!bmc) {
      bmc = new FakeBmc(
        row,
        () => undefined,
        () => undefined,
      );
      setUp(bmc);
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
      clock: () => now,
      hostHealth: async () => ({ source: "aggregate-host-health", successes: [], alerts: [] }),
    },
    bmcOf,
  );
  return state.state === "dpuInit" ? handleDpuInit(step, state) : handleHostInit(step, state as never);
}

const hostInit = (machineState: Extract<ManagedHostState, { state: "hostInit" }>["machineState"]) =>
  ({ state: "hostInit", machineState }) as ManagedHostState;

describe("waits ask to be run again when what they wait for can next have changed", () => {
  it.each<[string, ManagedHostState, number, ((bmc: FakeBmc) => void) | undefined, number | undefined]>([
    [
      "host off for a power cycle: when the power-down wait ends",
      { state: "dpuInit", dpus: { "dpu-1": "powerCycleHostOn" } },
      200,
      undefined,
      300,
    ],
    [
      "lockdown not yet on: the BMC poll interval",
      hostInit({ step: "pollingLockdownStatus" }),
      1_000,
      undefined,
      7_000,
    ],
    [
      "BIOS not yet showing the setup: the BMC poll interval",
      hostInit({ step: "pollingBiosSetup", retryCount: 0 }),
      1_000,
      (bmc) => {
        bmc.setupDone = false;
      },
      7_000,
    ],
    [
      "a failed machine setup's retry: when the retry interval ends",
      hostInit({ step: "machineSetup", retryCount: 1, lastError: "boom" }),
      10_000,
      undefined,
      50_000,
    ],
    [
      "the host agent's discovery: not at all (its report enqueues the host)",
      hostInit({ step: "waitingForDiscovery" }),
      1_000,
      undefined,
      undefined,
    ],
  ])("%s", async (_, state, nowMs, setUp, recheckAfterMs) => {
    const outcome = await runAt(state, nowMs, setUp);
    expect(outcome.kind).toBe("wait");
    expect(outcome).toEqual(
      recheckAfterMs === undefined
        ? { kind: "wait", reason: expect.any(String) }
        : { kind: "wait", reason: expect.any(String), recheckAfterMs },
    );
  });
});
