import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { canonicalMac } from "../fleet/index.js";
import {
  callsMade,
  reset,
  type Simulation,
  settle,
  startSimulation,
  systemOf,
} from "./__support__/simulation.js";

let sim: Simulation;
const HOST_ID = "host-a";

beforeEach(async () => {
  sim = await startSimulation();
  sim.server.known.set(sim.host.serial, { machineId: HOST_ID, kind: "host" });
});

afterEach(async () => {
  await sim.stop();
});

const controls = () => sim.server.of("AgentControl", HOST_ID);

describe("simulated host agent", () => {
  it("runs only after a boot, and identifies the host by serial and its DPUs' host-facing MACs", async () => {
    await settle(60);
    expect(sim.server.calls).toEqual([]);
    await reset(sim.host, "ForceRestart");
    await vi.waitFor(() => expect(controls().length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });

    const inventory = sim.server.of("DiscoverMachine")[0]?.request.inventory;
    const { body } = await systemOf(sim.host);
    expect(inventory?.serial).toBe(body.SerialNumber);
    const macs = (inventory?.nics ?? []).map((nic) => canonicalMac(nic.mac));
    for (const dpuMac of sim.host.plan.dpuMacs) expect(macs).toContain(canonicalMac(dpuMac));
    expect(inventory?.cpus.length).toBeGreaterThan(0);
    expect(Number(inventory?.memoryBytes)).toBeGreaterThan(0);
    expect(sim.server.forMachine(HOST_ID)[0]?.rpc).toBe("RebootCompleted");
  });

  it("answers the actions AgentControl hands out", async () => {
    sim.server.actions.set(HOST_ID, [
      { action: "discovery", validationContext: "" },
      { action: "cleanup", validationContext: "" },
      { action: "validation", validationContext: "cleanup" },
      { action: "reset", validationContext: "" },
    ]);
    sim.agents.failCleanup(sim.host.mac, "disk 2 would not wipe");
    await reset(sim.host, "On");
    await vi.waitFor(() => expect(sim.server.of("ValidationCompleted", HOST_ID)).toHaveLength(1), {
      timeout: 10_000,
    });
    // At boot, with the discovery action (a fresh inventory), and on reset.
    await vi.waitFor(() => expect(sim.server.of("DiscoverMachine")).toHaveLength(3), { timeout: 10_000 });
    expect(sim.server.of("DiscoveryCompleted", HOST_ID)).toHaveLength(1);
    expect(sim.server.of("CleanupCompleted", HOST_ID)[0]?.request).toMatchObject({
      success: false,
      message: "disk 2 would not wipe",
    });
    expect(sim.server.of("ValidationCompleted", HOST_ID)[0]?.request).toMatchObject({
      context: "cleanup",
      passed: true,
      results: [{ passed: true }],
    });
    // One action at a time: each completion comes before the next AgentControl.
    const order = sim.server.forMachine(HOST_ID).map((call) => call.rpc);
    expect(order.indexOf("DiscoveryCompleted")).toBeLessThan(order.indexOf("CleanupCompleted"));
  });

  it("stops when the host powers off and starts afresh after the next boot", async () => {
    await reset(sim.host, "On");
    // The agent has reported this boot (not merely started) before the host goes off.
    await vi.waitFor(() => expect(sim.server.of("RebootCompleted", HOST_ID)).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(sim.agents.agentRunning(sim.host.id)).toBe(true);
    await reset(sim.host, "GracefulShutdown");
    expect(sim.agents.agentRunning(sim.host.id)).toBe(false);
    // Stopped by that reset: from here on, not one call may start (one already on the wire may still land).
    const quietFrom = callsMade(sim.agents);
    await vi.waitFor(() => expect(sim.agents.stats.agentsRunning.host).toBe(0), { timeout: 10_000 });
    await settle(150);
    expect(callsMade(sim.agents)).toBe(quietFrom);
    const controlsBefore = sim.agents.stats.calls.AgentControl ?? 0;

    await reset(sim.host, "On");
    await vi.waitFor(() => expect(sim.server.of("RebootCompleted", HOST_ID)).toHaveLength(2), {
      timeout: 10_000,
    });
    expect(sim.agents.stats).toMatchObject({ bootsSeen: 3, agentsRunning: { host: 1, dpu: 0 } });
    // The fresh agent goes on to ask for work (its first AgentControl follows RebootCompleted).
    await vi.waitFor(() => expect(sim.agents.stats.calls.AgentControl ?? 0).toBeGreaterThan(controlsBefore), {
      timeout: 10_000,
    });
  });

  it("leaves missing GPUs out of the inventory of its next discovery, and reports them again once restored", async () => {
    await reset(sim.host, "On");
    await vi.waitFor(() => expect(sim.server.of("DiscoverMachine")).toHaveLength(1), { timeout: 10_000 });
    const gpus = () => sim.server.of("DiscoverMachine").map((call) => call.request.inventory?.gpus.length);
    const all = gpus()[0] ?? 0;
    expect(all).toBeGreaterThan(1);
    sim.agents.setMissingGpus(sim.host.mac, 1);
    sim.server.actions.set(HOST_ID, [{ action: "discovery", validationContext: "" }]);
    await vi.waitFor(() => expect(gpus()).toHaveLength(2), { timeout: 10_000 });
    sim.agents.setMissingGpus(sim.host.id, 0);
    sim.server.actions.set(HOST_ID, [{ action: "discovery", validationContext: "" }]);
    await vi.waitFor(() => expect(gpus()).toHaveLength(3), { timeout: 10_000 });
    expect(gpus()).toEqual([all, all - 1, all]);
  });

  it("runs the host tests it is handed as their scenario says, a hanging one stopped at its timeout", async () => {
    const spec = (id: string, timeoutMs = 5_000) => ({
      id,
      command: "stress-ng",
      args: ["--cpu", "0"],
      timeoutMs: String(timeoutMs),
    });
    sim.agents.setHostTestBehaviour(sim.host.mac, "t-fail", "fail");
    sim.agents.setHostTestBehaviour(sim.host.id, "t-hang", "hang");
    sim.agents.setHostTestBehaviour(sim.host.id, "t-crash", "crash");
    sim.server.actions.set(HOST_ID, [
      {
        action: "validation",
        validationContext: "cleanup",
        validationRunId: "run-1",
        tests: [spec("t-pass"), spec("t-fail"), spec("t-hang", 300), spec("t-crash")],
      },
    ]);
    await reset(sim.host, "On");
    await vi.waitFor(() => expect(sim.server.of("ValidationCompleted", HOST_ID)).toHaveLength(1), {
      timeout: 10_000,
    });
    const report = sim.server.of("ValidationCompleted", HOST_ID)[0]?.request;
    expect(report).toMatchObject({ runId: "run-1", context: "cleanup", passed: false });
    expect(report?.results.map((r) => [r.name, r.passed, r.exitCode, r.timedOut])).toEqual([
      ["t-pass", true, 0, false],
      ["t-fail", false, 1, false],
      ["t-hang", false, undefined, true],
      ["t-crash", false, undefined, false],
    ]);
    // Stopped at its timeout, and says so.
    expect(report?.results[2]?.stderr).toContain("stopped after 300 ms");
  });

  it("refuses fault controls for a BMC that has no such agent, or a count that is not one", () => {
    expect(() => sim.agents.failCleanup(sim.dpu.id, "x")).toThrow(/no host virtual BMC/);
    expect(() => sim.agents.setMissingGpus(sim.dpu.id, 1)).toThrow(/no host virtual BMC/);
    expect(() => sim.agents.setMissingGpus(sim.host.id, -1)).toThrow(/whole number ≥ 0, got -1/);
    expect(() => sim.agents.setHostTestBehaviour(sim.host.id, "t", "explode" as never)).toThrow(
      /must be one of pass, fail, hang, crash or null, got explode/,
    );
    expect(() => sim.agents.silenceDpuAgent("no-such-bmc")).toThrow(/no dpu virtual BMC/);
  });
});
