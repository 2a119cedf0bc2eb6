import type { DpuAgentHandlers } from "../../api/grpc/generated/racksmith/v1/DpuAgent.js";
import type { HostAgentHandlers } from "../../api/grpc/generated/racksmith/v1/HostAgent.js";
import { DEFAULT_LIMITS, MAX_MESSAGE_LENGTH, type ServiceLimits } from "../../api/index.js";

/** What a test or a cleanup reports of its output: the tail of a tool's stderr can run to pages. */
const MAX_AGENT_OUTPUT_LENGTH = 64 * 1024;
/** A host lists every function and namespace it sees: SR-IOV virtual functions and NVMe namespaces add up. */
const MAX_INVENTORY_DEVICES = 4096;

/** `racksmith.v1.DpuAgent`: its health report's alert texts as long as the health API's. */
export const DPU_AGENT_LIMITS: ServiceLimits<DpuAgentHandlers> = {
  GetManagedHostNetworkConfig: DEFAULT_LIMITS,
  RecordDpuNetworkStatus: {
    maxLength: {
      "health.alerts[].message": MAX_MESSAGE_LENGTH,
      "health.alerts[].tenantMessage": MAX_MESSAGE_LENGTH,
    },
  },
};

/** A PEM certificate request: a P-256 one is under 1 KiB, an RSA-4096 one under 4 KiB. */
const MAX_CSR_LENGTH = 8192;

/** `racksmith.v1.HostAgent`: inventories and test outputs are the agents' large payloads. */
export const HOST_AGENT_LIMITS: ServiceLimits<HostAgentHandlers> = {
  DiscoverMachine: {
    maxItems: { "inventory.nics": MAX_INVENTORY_DEVICES, "inventory.disks": MAX_INVENTORY_DEVICES },
    maxLength: { csrPem: MAX_CSR_LENGTH },
  },
  AgentControl: DEFAULT_LIMITS,
  DiscoveryCompleted: DEFAULT_LIMITS,
  RebootCompleted: DEFAULT_LIMITS,
  CleanupCompleted: { maxLength: { message: MAX_AGENT_OUTPUT_LENGTH } },
  ValidationCompleted: {
    maxLength: {
      "results[].message": MAX_AGENT_OUTPUT_LENGTH,
      "results[].stdout": MAX_AGENT_OUTPUT_LENGTH,
      "results[].stderr": MAX_AGENT_OUTPUT_LENGTH,
    },
  },
  RenewAgentCertificate: { maxLength: { csrPem: MAX_CSR_LENGTH } },
  GetWorkloadIdentity: { maxLength: { audience: 1024 } },
};
