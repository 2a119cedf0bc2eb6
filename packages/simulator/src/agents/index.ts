/**
 * Simulated DPU and host agents for a fleet: they start when the virtual BMCs say their machines booted and
 * call the service's agent gRPC API as the real agents do.
 */
export { AGENTS_PROTO } from "./agentApi.js";
export { DPU_AGENT_VERSION } from "./dpuMachine.js";
export { SimulatedAgentNotFoundError } from "./errors.js";
export {
  SIMULATED_GPUS_PER_HOST,
  SIMULATED_TRAYS_PER_DOMAIN,
  simulatedGpuPlatform,
  simulatedHostGpus,
  simulatedHostIndex,
} from "./gpus.js";
export { HOST_TEST_BEHAVIOURS, type HostTestBehaviour } from "./hostTests.js";
export {
  SIMULATED_HCA_MODEL,
  SIMULATED_IB_PORTS_PER_HOST,
  type SimulatedIbPort,
  simulatedIbPorts,
} from "./ibPorts.js";
export { startSimulatedAgents } from "./startSimulatedAgents.js";
export {
  type AgentTiming,
  DEFAULT_AGENT_TIMING,
  type DpuHealthAlert,
  type SimulatedAgents,
  type SimulatedAgentsOptions,
  type SimulatedAgentsStats,
} from "./types.js";
