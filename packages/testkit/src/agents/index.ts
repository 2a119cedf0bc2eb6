/**
 * Simulated DPU and host agents for a fleet: they start when the virtual BMCs say their machines booted and
 * call the core's agent gRPC API as the real agents do.
 */
export { AGENTS_PROTO } from "./agentApi.js";
export { DPU_AGENT_VERSION } from "./dpuMachine.js";
export { SimulatedAgentNotFoundError } from "./errors.js";
export { startSimulatedAgents } from "./startSimulatedAgents.js";
export {
  type AgentTiming,
  DEFAULT_AGENT_TIMING,
  type DpuHealthAlert,
  type SimulatedAgents,
  type SimulatedAgentsOptions,
  type SimulatedAgentsStats,
} from "./types.js";
