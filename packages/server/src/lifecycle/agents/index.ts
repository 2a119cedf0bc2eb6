export { type AgentAction, type AgentActionInput, type AgentActionKind, agentAction } from "./agentAction.js";
export {
  AgentStore,
  DPU_AGENT_HEALTH_SOURCE,
  type DpuNetworkStatusReport,
  HOST_AGENT_RUNNER,
  type MachineReportsRow,
} from "./agentStore.js";
export { enqueueHost } from "./enqueueHost.js";
export { DpuNotFoundError, MachineNotIdentifiedError } from "./errors.js";
export {
  type AgentServicesDeps,
  agentGrpcServices,
  DPU_AGENT_SERVICE,
  HOST_AGENT_SERVICE,
} from "./grpcService.js";
export { loadNetworkConfig } from "./loadNetworkConfig.js";
export {
  findMachine,
  hostLifecycleState,
  identifyMachine,
  type MachineWithHost,
  requireHostMachine,
  requireMachine,
} from "./machineLookup.js";
export {
  ADMIN_INTERFACE,
  DEFAULT_HOST_NETWORK,
  type DesiredNetworkConfigInput,
  desiredNetworkConfig,
  type ManagedHostNetworkConfig,
  type NetworkInterfaceConfig,
} from "./networkConfig.js";
