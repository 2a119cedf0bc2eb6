/**
 * What an InfiniBand fabric manager (NVIDIA UFM, or a simulator) reports and accepts, in the core's terms.
 * Pkeys are numbers (see `pkey.ts`), GUIDs are normalised strings (see `guid.ts`).
 */
import type { IbGuid } from "./guid.js";
import type { Pkey } from "./pkey.js";
import type { InfiniBandQos } from "./qos.js";

/** Full members talk to every member; limited members only to full ones. Tenants' ports are full members. */
export type InfiniBandMembership = "full" | "limited";

export interface InfiniBandPartitionMember {
  guid: IbGuid;
  membership: InfiniBandMembership;
  /** Whether the pkey sits at index 0 of the port's pkey table (the port's default pkey). */
  index0: boolean;
}

export interface InfiniBandPartition {
  pkey: Pkey;
  /** The fabric manager's name for it. */
  name: string;
  ipOverIb: boolean;
  /** Present when asked for (`qos: true`). */
  qos?: InfiniBandQos;
  /**
   * Present when asked for (`guids: true`). Absent means "not fetched", never "empty": the monitor must not
   * decide a port is unbound from a listing without GUIDs.
   */
  members?: InfiniBandPartitionMember[];
  /**
   * The default partition's own membership (UFM ≥ 6.19 reports it, only with GUIDs): `full` lets every
   * port talk to every other through it, which the security check flags.
   */
  defaultMembership?: InfiniBandMembership;
}

export interface InfiniBandCallOptions {
  /** Aborts the call (the state handler's deadline, shutdown). */
  signal?: AbortSignal;
}

export interface InfiniBandPartitionQuery extends InfiniBandCallOptions {
  /** Include each partition's member GUIDs. */
  guids?: boolean;
  /** Include each partition's QoS. */
  qos?: boolean;
}

export interface InfiniBandBindOptions extends InfiniBandCallOptions {
  /** Default `full` (NICo always binds full members). */
  membership?: InfiniBandMembership;
  /** Default true. */
  index0?: boolean;
  /** Default true (NICo partitions carry IP over IB). Only used when the bind creates the partition. */
  ipOverIb?: boolean;
}

export const INFINIBAND_PORT_STATES = ["active", "down", "initialize", "armed"] as const;
/** A port's logical state; `unknown` when the fabric reports something else. */
export type InfiniBandPortState = (typeof INFINIBAND_PORT_STATES)[number] | "unknown";

/** A host-facing port (UFM `sys_type=Computer`). */
export interface InfiniBandPort {
  guid: IbGuid;
  name: string;
  state: InfiniBandPortState;
  /** As the fabric reports it (`Active`, `Down`, …), for display. */
  logicalState: string;
  physicalState: string;
  /** Local identifier; meaningful only while the port is active (the monitor reports 0xffff otherwise). */
  lid: number;
  systemId?: string;
  systemName?: string;
  /** Name of the device (switch or HCA) the port belongs to (UFM `dname`). */
  deviceName?: string;
}

export interface InfiniBandPortFilter extends InfiniBandCallOptions {
  /** Only these GUIDs (any form; normalised). */
  guids?: readonly string[];
  /** Only ports that are members of this partition. */
  pkey?: Pkey;
  state?: InfiniBandPortState;
}

export interface InfiniBandFabricVersions {
  /** The fabric manager's product (`UFM`). */
  manager: string;
  version: string;
}

/**
 * The subnet manager's protection keys. Keys are `0x` + 16 lowercase hex digits so the 64-bit values keep
 * their precision; they are only compared against the factory defaults, never logged by the core.
 */
export interface InfiniBandSubnetManagerConfig {
  subnetPrefix: string;
  mKey: string;
  smKey: string;
  saKey: string;
  mKeyPerPort: boolean;
}
