import type { Logger } from "@racksmith/core";
import type { Fleet } from "../fleet/index.js";
import type { HostTestBehaviour } from "./hostTests.js";
import type { AgentRpcName, WorkloadIdentity } from "./messages.js";

/** How long the simulated machines and agents take (ms). Every delay is jittered by ±10 %. */
export interface AgentTiming {
  /** From a boot to the agent's first call. Default 300. */
  readonly bootDelayMs: number;
  /** Between two polls (DPU: config + status heartbeat; host: AgentControl). Default 250. */
  readonly pollIntervalMs: number;
  /** Applying a new network configuration on a DPU. Default 200. */
  readonly applyDelayMs: number;
  /** The host agent's discovery checks. Default 200. */
  readonly discoveryDelayMs: number;
  /** Wiping a host's disks. Default 300. */
  readonly cleanupDelayMs: number;
  /** Retrying DiscoverMachine while the machine is unknown to the site (NOT_FOUND). Default 1000. */
  readonly notFoundRetryMs: number;
  /** First retry after a failed call (UNAVAILABLE, …), doubled up to `maxBackoffMs`. Default 100. */
  readonly retryMs: number;
  /** Default 2000. */
  readonly maxBackoffMs: number;
  /** Deadline of every call. Default 5000. */
  readonly callTimeoutMs: number;
}

export const DEFAULT_AGENT_TIMING: AgentTiming = {
  bootDelayMs: 300,
  pollIntervalMs: 250,
  applyDelayMs: 200,
  discoveryDelayMs: 200,
  cleanupDelayMs: 300,
  notFoundRetryMs: 1000,
  retryMs: 100,
  maxBackoffMs: 2000,
  callTimeoutMs: 5000,
};

export interface SimulatedAgentsOptions {
  readonly fleet: Fleet;
  /** The service's gRPC listener, `HOST:PORT` (plaintext). */
  readonly grpcAddress: string;
  /**
   * The bearer token the agents' calls on the service's gRPC listener send (the service's admin token, or an
   * agent token): DiscoverMachine always, every call while the machine holds no certificate.
   */
  readonly token?: string;
  /** Ask for a machine certificate at DiscoverMachine and call over mTLS with it (default true). */
  readonly mtls?: boolean;
  readonly timing?: Partial<AgentTiming>;
  readonly logger?: Logger;
}

/** An alert a DPU agent adds to its health report (`setDpuHealth`). */
export interface DpuHealthAlert {
  readonly id: string;
  readonly target?: string;
  readonly message: string;
  readonly tenantMessage?: string;
  /** PreventAllocations, PreventHostStateChanges, … */
  readonly classifications?: readonly string[];
}

export interface SimulatedAgentsStats {
  /** Calls made, per RPC (failed ones included). */
  readonly calls: Readonly<Partial<Record<AgentRpcName, number>>>;
  /** Failed calls per gRPC status name (`UNAVAILABLE`, `NOT_FOUND`, …). */
  readonly errors: Readonly<Record<string, number>>;
  /** Agents whose loop runs now (booted, boot delay over, not stopped). */
  readonly agentsRunning: { readonly host: number; readonly dpu: number };
  /** Boots of hosts and DPUs (a host powering on boots its DPUs too). */
  readonly bootsSeen: number;
  /** DPU boots over HTTP that installed the DPU's OS. */
  readonly osInstalls: number;
  /** Machine certificates the service signed at DiscoverMachine (each agent then calls over mTLS). */
  readonly certificatesIssued: number;
  /** Certificates renewed over mTLS before they expired. */
  readonly renewals: number;
  /** mTLS connections to the agent listener: full handshakes, and those that resumed the channel's last session. */
  readonly tlsHandshakes: { readonly full: number; readonly resumed: number };
}

/** Agents on every host and DPU of a fleet, driven by the virtual BMCs' power and boot state. */
export interface SimulatedAgents {
  readonly stats: SimulatedAgentsStats;
  /** True once the DPU booted over HTTP (its OS is installed). */
  dpuOsInstalled(dpuBmcIdOrMac: string): boolean;
  /** True while the machine's agent loop runs. */
  agentRunning(bmcIdOrMac: string): boolean;
  /** The DPU agent makes no call at all while silent (a DPU that never reports). */
  silenceDpuAgent(dpuBmcIdOrMac: string, silent?: boolean): void;
  /** Alerts the DPU agent puts in its next health reports (`[]` for healthy again). */
  setDpuHealth(dpuBmcIdOrMac: string, alerts: readonly DpuHealthAlert[]): void;
  /** The host agent reports its cleanups as failed with this message; `null` lets them succeed again. */
  failCleanup(hostBmcIdOrMac: string, message: string | null): void;
  /**
   * How the host test `testId` goes when the service hands it to this host's agent: `pass` (exit 0, the
   * default), `fail` (exit 1), `hang` (stopped at its timeout, reported timed out), `crash` (no exit code);
   * null: passes again.
   */
  setHostTestBehaviour(hostBmcIdOrMac: string, testId: string, behaviour: HostTestBehaviour | null): void;
  /**
   * The host agent leaves `count` of the host's GPUs out of every inventory from its next discovery on (a GPU
   * fallen off the bus); 0 restores them.
   */
  setMissingGpus(hostBmcIdOrMac: string, count: number): void;
  /**
   * The host's agent asks the service for a JWT-SVID for its tenant's workload (`audience` its aud), over the
   * machine's certificate: what a workload on an instance's host does.
   */
  workloadIdentity(hostBmcIdOrMac: string, audience: string): Promise<WorkloadIdentity>;
  /**
   * Every machine booting from now on starts its agent `ms` after the boot (slow boots, so every report after
   * a reboot comes late); null restores the configured `bootDelayMs`.
   */
  delayBoots(ms: number | null): void;
  /** Stops every agent, stops listening to the BMCs and closes the gRPC channel. */
  stop(): Promise<void>;
}
