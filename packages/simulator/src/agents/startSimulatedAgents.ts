import { silentLogger } from "@racksmith/core";
import type { MockupPowerChange } from "@racksmith/testkit";
import type { VirtualBmc } from "../fleet/index.js";
import { AgentApi } from "./agentApi.js";
import { delay } from "./agentContext.js";
import { DpuMachine } from "./dpuMachine.js";
import { SimulatedAgentNotFoundError } from "./errors.js";
import { HostMachine } from "./hostMachine.js";
import { HOST_TEST_BEHAVIOURS } from "./hostTests.js";
import type { SimDeps, SimMachine } from "./simMachine.js";
import { AgentStatsCounter } from "./stats.js";
import {
  type AgentTiming,
  DEFAULT_AGENT_TIMING,
  type DpuHealthAlert,
  type SimulatedAgents,
  type SimulatedAgentsOptions,
  type SimulatedAgentsStats,
} from "./types.js";

/**
 * Simulated DPU and host agents for every machine of a fleet, calling the service's agent gRPC API at
 * `grpcAddress`. Nothing runs until a virtual BMC says its machine booted: agents follow the resets the service
 * sends to the BMCs (see the package README, "Simulated agents"). Listening to a BMC does not make its mockup
 * service, so an idle fleet stays idle.
 */
export function startSimulatedAgents(options: SimulatedAgentsOptions): SimulatedAgents {
  const configured: AgentTiming = { ...DEFAULT_AGENT_TIMING, ...options.timing };
  // One object every machine reads at each boot, so `delayBoots` reaches the next boots.
  const timing: { -readonly [K in keyof AgentTiming]: AgentTiming[K] } = { ...configured };
  const logger = options.logger ?? silentLogger;
  const stats = new AgentStatsCounter();
  const api = new AgentApi(options.grpcAddress, stats, timing.callTimeoutMs, options.token);
  const deps: SimDeps = { api, timing, stats, logger, mtls: options.mtls ?? true };
  const { fleet } = options;

  const machines = new Map<string, HostMachine | DpuMachine>();
  for (const bmc of fleet.bmcs) {
    if (bmc.kind === "host") {
      const host = new HostMachine(bmc, deps);
      host.powered = !bmc.plan.poweredOff;
      machines.set(bmc.id, host);
    }
  }
  for (const bmc of fleet.bmcs) {
    if (bmc.kind !== "dpu") continue;
    const dpu = new DpuMachine(bmc, deps);
    const host = bmc.plan.host ? machines.get(bmc.plan.host) : undefined;
    if (host instanceof HostMachine) {
      host.dpus.push(dpu);
      dpu.setHostPower(host.powered);
    }
    machines.set(bmc.id, dpu);
  }

  let stopped = false;
  const lifetime = new AbortController();
  const unsubscribe = [...machines.values()].map((machine) =>
    machine.bmc.onPowerChange((change: MockupPowerChange) => {
      if (stopped) return;
      try {
        machine.powerChanged(change);
      } catch (error) {
        logger.error({ bmc: machine.bmc.id, err: (error as Error).message }, "simulated machine failed");
      }
    }),
  );

  function find(key: string): SimMachine | undefined {
    const bmc: VirtualBmc | undefined = fleet.bmc(key);
    return bmc ? machines.get(bmc.id) : undefined;
  }
  function dpu(key: string): DpuMachine {
    const machine = find(key);
    if (!(machine instanceof DpuMachine)) throw new SimulatedAgentNotFoundError(key, "dpu");
    return machine;
  }
  function host(key: string): HostMachine {
    const machine = find(key);
    if (!(machine instanceof HostMachine)) throw new SimulatedAgentNotFoundError(key, "host");
    return machine;
  }

  return {
    get stats(): SimulatedAgentsStats {
      return stats.snapshot();
    },
    dpuOsInstalled: (key) => dpu(key).osInstalled,
    agentRunning(key) {
      const machine = find(key);
      if (!machine) throw new SimulatedAgentNotFoundError(key, "host or DPU");
      return machine.agentRunning;
    },
    silenceDpuAgent: (key, silent = true) => dpu(key).setSilent(silent),
    setDpuHealth: (key, alerts: readonly DpuHealthAlert[]) => dpu(key).setHealth(alerts),
    failCleanup(key, message) {
      host(key).cleanupFailure = message;
    },
    setHostTestBehaviour(key, testId, behaviour) {
      if (behaviour !== null && !HOST_TEST_BEHAVIOURS.includes(behaviour)) {
        throw new RangeError(
          `setHostTestBehaviour: behaviour must be one of ${HOST_TEST_BEHAVIOURS.join(", ")} or null, got ${String(behaviour)}`,
        );
      }
      const behaviours = host(key).testBehaviours;
      if (behaviour === null) behaviours.delete(testId);
      else behaviours.set(testId, behaviour);
    },
    setMissingGpus(key, count) {
      if (!Number.isInteger(count) || count < 0) {
        throw new RangeError(`setMissingGpus: count must be a whole number ≥ 0, got ${count}`);
      }
      host(key).missingGpus = count;
    },
    async workloadIdentity(key, audience) {
      const machine = host(key);
      // Asked over the machine's certificate: while the host reboots it may hold none yet (or a lapsed one).
      while (!machine.identity.certificate || machine.identity.expired()) {
        await delay(100, lifetime.signal, true);
      }
      // A request of the test's, not of the agent's loop: it lives as long as the simulation.
      return api.callAs(machine.identity, "GetWorkloadIdentity", { audience }, lifetime.signal);
    },
    delayBoots(ms) {
      timing.bootDelayMs = ms ?? configured.bootDelayMs;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      lifetime.abort();
      for (const stop of unsubscribe) stop();
      for (const machine of machines.values()) machine.stopAgent();
      // Let the aborted loops unwind (their calls are cancelled) before the channel goes.
      await new Promise((resolve) => setImmediate(resolve));
      api.close();
    },
  };
}
