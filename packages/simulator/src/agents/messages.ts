/**
 * The agent API's messages as `@grpc/proto-loader` hands them over with the server's `PROTO_LOADER_OPTIONS`
 * (camelCase fields, 64-bit integers as strings, `optional` fields absent when unset). Written here, only the
 * fields the simulated agents use, because the server's generated types are not part of its public API.
 */

export interface Timestamp {
  seconds: string | number;
  nanos: number;
}

export interface HealthProbeSuccess {
  id: string;
  target?: string;
}

export interface HealthProbeAlert {
  id: string;
  target?: string;
  inAlertSince?: Timestamp | null;
  message: string;
  tenantMessage?: string;
  classifications: string[];
}

export interface HealthReport {
  source: string;
  observedAt: Timestamp;
  successes: HealthProbeSuccess[];
  alerts: HealthProbeAlert[];
}

export interface NetworkInterfaceConfig {
  function: string;
  network: string;
}

export interface ManagedHostNetworkConfig {
  dpuId: string;
  hostId: string;
  managedHostConfigVersion: string;
  useAdminNetwork: boolean;
  adminInterface: NetworkInterfaceConfig | null;
  tenantInterfaces: NetworkInterfaceConfig[];
  instanceId?: string;
  instanceConfigVersion?: string;
}

export interface InterfaceObservation {
  function: string;
  network: string;
  linkUp: boolean;
}

export interface DpuNetworkStatus {
  dpuId: string;
  appliedManagedHostConfigVersion: string;
  appliedInstanceConfigVersion?: string;
  interfaces: InterfaceObservation[];
  health: HealthReport;
  agentVersion: string;
}

export interface Cpu {
  model: string;
  cores: number;
  threads: number;
}

export interface Disk {
  name: string;
  model: string;
  serial: string;
  sizeBytes: string;
}

export interface Nic {
  name: string;
  mac: string;
  model: string;
  pciAddress: string;
}

export interface Gpu {
  model: string;
  serial: string;
  pciAddress: string;
  /** Where the GPU sits (GB200 compute trays): what the core matches against NMX-M's GPUs. */
  platform?: GpuPlatformInfo;
}

export interface GpuPlatformInfo {
  chassisSerial: string;
  slot: number;
  tray: number;
}

export interface IbPort {
  device: string;
  port: number;
  guid: string;
  rateGbps: number;
}

export interface MachineInventory {
  serial: string;
  vendor: string;
  model: string;
  cpus: Cpu[];
  memoryBytes: string;
  disks: Disk[];
  nics: Nic[];
  gpus: Gpu[];
  ibPorts: IbPort[];
}

/** A machine's client certificate for the agent listener (mTLS). */
export interface AgentCertificate {
  certificatePem: string;
  caCertificatePem: string;
  agentAddress: string;
  expiresAt?: Timestamp | null;
}

/** A JWT-SVID for the tenant's workload on the machine. */
export interface WorkloadIdentity {
  token: string;
  expiresAt?: Timestamp | null;
  spiffeId: string;
}

export interface DiscoverMachineResponse {
  machineId: string;
  kind: string;
  /** With a CSR sent, when the service serves agents over mTLS. */
  certificate?: AgentCertificate | null;
}

export interface AgentControlResponse {
  /** noop | discovery | cleanup | validation | reset */
  action: string;
  validationContext: string;
  /** validation of host tests: the run to report, and its tests. */
  validationRunId?: string;
  tests?: HostTestSpec[];
}

/** A test the service hands the host agent to run. */
export interface HostTestSpec {
  id: string;
  command: string;
  args: string[];
  timeoutMs: string;
}

export interface CleanupCompletedRequest {
  machineId: string;
  success: boolean;
  message: string;
}

export interface ValidationTestResult {
  name: string;
  passed: boolean;
  message: string;
  durationMs: string;
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  startedAt?: Timestamp;
  endedAt?: Timestamp;
  timedOut?: boolean;
}

export interface ValidationCompletedRequest {
  machineId: string;
  context: string;
  passed: boolean;
  results: ValidationTestResult[];
  runId?: string;
}

/** What each RPC the agents make takes and returns. */
export interface AgentRpcs {
  GetManagedHostNetworkConfig: [{ dpuId: string }, ManagedHostNetworkConfig];
  RecordDpuNetworkStatus: [DpuNetworkStatus, Record<string, never>];
  DiscoverMachine: [{ inventory: MachineInventory; csrPem?: string }, DiscoverMachineResponse];
  AgentControl: [{ machineId: string }, AgentControlResponse];
  DiscoveryCompleted: [{ machineId: string }, { recordedAt?: Timestamp | null }];
  RebootCompleted: [{ machineId: string }, { recordedAt?: Timestamp | null }];
  CleanupCompleted: [CleanupCompletedRequest, { recordedAt?: Timestamp | null }];
  ValidationCompleted: [ValidationCompletedRequest, { recordedAt?: Timestamp | null }];
  RenewAgentCertificate: [{ csrPem: string }, AgentCertificate];
  GetWorkloadIdentity: [{ audience: string }, WorkloadIdentity];
}

export type AgentRpcName = keyof AgentRpcs;

/** The service each RPC belongs to. */
export const RPC_SERVICE: Readonly<Record<AgentRpcName, "DpuAgent" | "HostAgent">> = {
  GetManagedHostNetworkConfig: "DpuAgent",
  RecordDpuNetworkStatus: "DpuAgent",
  DiscoverMachine: "HostAgent",
  AgentControl: "HostAgent",
  DiscoveryCompleted: "HostAgent",
  RebootCompleted: "HostAgent",
  CleanupCompleted: "HostAgent",
  ValidationCompleted: "HostAgent",
  RenewAgentCertificate: "HostAgent",
  GetWorkloadIdentity: "HostAgent",
};

export function timestamp(ms: number): Timestamp {
  return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}
