import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  bootOnceUefiHttp,
  callsMade,
  reset,
  type Simulation,
  settle,
  startSimulation,
  systemOf,
} from "./__support__/simulation.js";

let sim: Simulation;
const DPU_ID = "dpu-a";

beforeEach(async () => {
  sim = await startSimulation();
  sim.server.known.set(sim.dpu.serial, { machineId: DPU_ID, kind: "dpu" });
  sim.server.configs.set(DPU_ID, {
    dpuId: DPU_ID,
    hostId: "host-a",
    managedHostConfigVersion: "1",
    useAdminNetwork: true,
    adminInterface: { function: "pf0", network: "admin" },
    tenantInterfaces: [],
  });
});

afterEach(async () => {
  await sim.stop();
});

/** Installs the DPU's OS the way the lifecycle does: boot once over HTTP, then reset the DPU. */
async function installOs(): Promise<void> {
  await bootOnceUefiHttp(sim.dpu);
  await reset(sim.dpu, "ForceRestart");
}

const statusCalls = () => sim.server.of("RecordDpuNetworkStatus", DPU_ID);

describe("simulated DPU agent", () => {
  it("does not run before the DPU booted over HTTP once", async () => {
    await reset(sim.dpu, "ForceRestart");
    await reset(sim.host, "ForceRestart");
    await settle();
    expect(sim.agents.dpuOsInstalled(sim.dpu.id)).toBe(false);
    expect(sim.server.of("GetManagedHostNetworkConfig")).toEqual([]);
    expect(sim.server.of("DiscoverMachine").map((call) => call.request.inventory.serial)).not.toContain(
      sim.dpu.serial,
    );
    expect(sim.agents.stats.bootsSeen).toBe(2);
  });

  it("discovers the DPU by the serial its BMC shows, then reports the applied config with its health", async () => {
    await installOs();
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(sim.agents.dpuOsInstalled(sim.dpu.id)).toBe(true);
    expect(sim.agents.stats.osInstalls).toBe(1);
    const { body } = await systemOf(sim.dpu);
    expect(sim.server.of("DiscoverMachine")[0]?.request.inventory.serial).toBe(body.SerialNumber);
    expect(body.SerialNumber).toBe(sim.dpu.serial);
    const order = sim.server.forMachine(DPU_ID).map((call) => call.rpc);
    expect(order.slice(0, 4)).toEqual([
      "DiscoveryCompleted",
      "RebootCompleted",
      "GetManagedHostNetworkConfig",
      "RecordDpuNetworkStatus",
    ]);
    const status = statusCalls()[0]?.request;
    expect(status).toMatchObject({
      dpuId: DPU_ID,
      appliedManagedHostConfigVersion: "1",
      interfaces: [{ function: "pf0", network: "admin", linkUp: true }],
      health: {
        source: "forge-dpu-agent",
        successes: [{ id: "BgpPeering" }, { id: "ContainerHealth" }],
        alerts: [],
      },
    });
    expect(status?.appliedInstanceConfigVersion).toBeUndefined();
    expect(Number(status?.health.observedAt.seconds)).toBeGreaterThan(0);
    // The one-time override was used by that boot: the next reset is a plain boot that keeps the OS.
    await reset(sim.dpu, "ForceRestart");
    expect(sim.agents.stats.osInstalls).toBe(1);
  });

  it("applies a new configuration and reports its versions, heartbeating meanwhile", async () => {
    await installOs();
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    sim.server.configs.set(DPU_ID, {
      dpuId: DPU_ID,
      hostId: "host-a",
      managedHostConfigVersion: "2",
      useAdminNetwork: false,
      adminInterface: { function: "pf0", network: "admin" },
      tenantInterfaces: [{ function: "pf0vf1", network: "tenant-blue" }],
      instanceId: "instance-1",
      instanceConfigVersion: "7",
    });
    await vi.waitFor(() => expect(statusCalls().at(-1)?.request.appliedManagedHostConfigVersion).toBe("2"), {
      timeout: 10_000,
    });
    expect(statusCalls().at(-1)?.request).toMatchObject({
      appliedInstanceConfigVersion: "7",
      interfaces: [{ function: "pf0vf1", network: "tenant-blue", linkUp: true }],
    });
  });

  it("stops when its host powers off and starts again when the host powers on; a warm restart leaves it", async () => {
    await installOs();
    // Its first discovery is done (not merely started), so the count below cannot move under our feet.
    await vi.waitFor(() => expect(sim.server.of("DiscoveryCompleted", DPU_ID)).toHaveLength(1), {
      timeout: 10_000,
    });

    // A warm restart boots the host only (power changes are handled while the reset is answered).
    const bootsBefore = sim.agents.stats.bootsSeen;
    await reset(sim.host, "ForceRestart");
    expect(sim.agents.stats.bootsSeen).toBe(bootsBefore + 1);
    expect(sim.agents.agentRunning(sim.dpu.id)).toBe(true);

    const discoveriesBefore = sim.server.of("DiscoveryCompleted", DPU_ID).length;
    await reset(sim.host, "ForceOff");
    expect(sim.agents.agentRunning(sim.dpu.id)).toBe(false);
    // Both agents (the host's too) were stopped by that reset: from here on, not one call may start.
    const callsAtPowerOff = callsMade(sim.agents);
    await vi.waitFor(() => expect(sim.agents.stats.agentsRunning).toEqual({ host: 0, dpu: 0 }), {
      timeout: 10_000,
    });
    await settle(150);
    expect(callsMade(sim.agents)).toBe(callsAtPowerOff);

    const heardBefore = sim.server.forMachine(DPU_ID).length;
    await reset(sim.host, "On");
    await vi.waitFor(
      () => expect(sim.server.of("DiscoveryCompleted", DPU_ID).length).toBe(discoveriesBefore + 1),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(sim.server.forMachine(DPU_ID).length).toBeGreaterThan(heardBefore + 3), {
      timeout: 10_000,
    });
  });

  it("boots again when its host power-cycles", async () => {
    await installOs();
    await vi.waitFor(() => expect(sim.server.of("DiscoveryCompleted", DPU_ID)).toHaveLength(1), {
      timeout: 10_000,
    });
    await reset(sim.host, "PowerCycle");
    await vi.waitFor(() => expect(sim.server.of("DiscoveryCompleted", DPU_ID)).toHaveLength(2), {
      timeout: 10_000,
    });
  });

  it("keeps rediscovering slowly while the DPU is unknown", async () => {
    sim.server.known.delete(sim.dpu.serial);
    await installOs();
    // The agent counts a NOT_FOUND when the answer reaches it, after the fake server recorded the call.
    await vi.waitFor(() => expect(sim.agents.stats.errors.NOT_FOUND).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    expect(sim.server.of("DiscoverMachine").length).toBeGreaterThanOrEqual(2);
    sim.server.known.set(sim.dpu.serial, { machineId: DPU_ID, kind: "dpu" });
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThan(0), { timeout: 10_000 });
  });

  it("makes no call while silenced, and reports its alerts", async () => {
    await installOs();
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThan(0), { timeout: 10_000 });
    sim.agents.silenceDpuAgent(sim.dpu.mac);
    // A call already on the wire may still reach the server, but the agent starts no new one.
    const before = callsMade(sim.agents);
    await settle(150);
    expect(callsMade(sim.agents)).toBe(before);
    expect(sim.agents.agentRunning(sim.dpu.id)).toBe(true);

    sim.agents.setDpuHealth(sim.dpu.id, [
      { id: "BgpPeering", message: "no BGP session", classifications: ["PreventAllocations"] },
    ]);
    sim.agents.silenceDpuAgent(sim.dpu.mac, false);
    await vi.waitFor(() => expect(statusCalls().at(-1)?.request.health.alerts).toHaveLength(1), {
      timeout: 10_000,
    });
    expect(statusCalls().at(-1)?.request.health).toMatchObject({
      successes: [{ id: "ContainerHealth" }],
      alerts: [{ id: "BgpPeering", message: "no BGP session", classifications: ["PreventAllocations"] }],
    });
  });

  it("survives the service going away and finds it again on the same port", async () => {
    await installOs();
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThan(0), { timeout: 10_000 });
    sim.server.stop();
    await vi.waitFor(() => expect(sim.agents.stats.errors.UNAVAILABLE).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    expect(sim.agents.agentRunning(sim.dpu.id)).toBe(true);
    const before = statusCalls().length;
    await sim.server.listen();
    await vi.waitFor(() => expect(statusCalls().length).toBeGreaterThan(before + 1), { timeout: 10_000 });
  });
});
