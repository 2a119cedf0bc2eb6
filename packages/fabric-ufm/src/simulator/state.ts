import { DEFAULT_PKEY, formatPkey, normalizeIbGuid, type Pkey } from "@racksmith/core/infiniband";
import type { UfmMembership, UfmPartition, UfmPort, UfmQosConf, UfmSmConfig } from "../client/index.js";

/** A host-facing port of the simulated fabric. Everything but the GUID has a plausible default. */
export interface SimulatedPort {
  guid: string;
  name?: string;
  systemId?: string;
  systemName?: string;
  lid?: number;
  deviceName?: string;
  /** `Active` (default), `Down`, `Initialize`, `Armed`. */
  logicalState?: string;
  physicalState?: string;
}

/** The subnet manager's keys and the default partition's membership (defaults: NICo's mock, all secure). */
export interface SimulatedSecurity {
  subnetPrefix?: string;
  mKey?: string;
  smKey?: string;
  saKey?: string;
  mKeyPerPort?: boolean;
  defaultMembership?: UfmMembership;
}

export interface SimulatedMember {
  membership: UfmMembership;
  index0: boolean;
}

export interface SimulatedPartition {
  pkey: Pkey;
  name: string;
  ipOverIb: boolean;
  qos: UfmQosConf;
  members: Map<string, SimulatedMember>;
}

/** Thrown by state changes; the server answers it with `status` and a UFM-like error body. */
export class SimulatorRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_QOS: UfmQosConf = { mtu_limit: 2, service_level: 0, rate_limit: 2.5 };

/** What UFM holds: ports, partitions with their members and QoS, and the subnet manager config. */
export class UfmSimulatorState {
  readonly ports = new Map<string, Required<Omit<SimulatedPort, "guid">> & { guid: string }>();
  readonly partitions = new Map<Pkey, SimulatedPartition>();
  security: Required<SimulatedSecurity>;

  constructor(ports: readonly SimulatedPort[], security: SimulatedSecurity = {}) {
    this.security = {
      subnetPrefix: "0xfe80000000000000",
      mKey: "0x10",
      smKey: "0x20",
      saKey: "0x30",
      mKeyPerPort: true,
      defaultMembership: "limited",
      ...security,
    };
    this.partitions.set(DEFAULT_PKEY, {
      pkey: DEFAULT_PKEY,
      name: "management",
      ipOverIb: true,
      qos: { ...DEFAULT_QOS },
      members: new Map(),
    });
    for (const port of ports) this.addPort(port);
  }

  /** Adds a port; like a real fabric, it joins the default partition. */
  addPort(port: SimulatedPort): void {
    const guid = normalizeIbGuid(port.guid);
    const index = this.ports.size + 1;
    this.ports.set(guid, {
      guid,
      name: port.name ?? `${guid}_1`,
      systemId: port.systemId ?? guid,
      systemName: port.systemName ?? `host-${index}`,
      lid: port.lid ?? index,
      deviceName: port.deviceName ?? "mlx5_0",
      logicalState: port.logicalState ?? "Active",
      physicalState: port.physicalState ?? "LinkUp",
    });
    this.defaultPartition().members.set(guid, {
      membership: this.security.defaultMembership,
      index0: true,
    });
  }

  setPortState(guid: string, logicalState: string): void {
    const port = this.ports.get(normalizeIbGuid(guid));
    if (!port) throw new Error(`no simulated port ${guid}`);
    port.logicalState = logicalState;
    port.physicalState = logicalState.toLowerCase() === "down" ? "Polling" : "LinkUp";
  }

  setSecurity(security: SimulatedSecurity): void {
    this.security = { ...this.security, ...security };
    if (security.defaultMembership) {
      for (const member of this.defaultPartition().members.values())
        member.membership = security.defaultMembership;
    }
  }

  /** `POST /resources/pkeys`: creates the partition on its first GUID; unknown GUIDs are refused. */
  bind(pkey: Pkey, guids: readonly string[], member: SimulatedMember, ipOverIb: boolean): void {
    const normalized = guids.map((guid) => normalizeIbGuid(guid));
    const unknown = normalized.filter((guid) => !this.ports.has(guid));
    if (unknown.length)
      throw new SimulatorRequestError(400, `GUIDs not found in fabric: ${unknown.join(", ")}`);
    let partition = this.partitions.get(pkey);
    if (!partition) {
      partition = {
        pkey,
        name: `api_pkey_${formatPkey(pkey)}`,
        ipOverIb,
        qos: { ...DEFAULT_QOS },
        members: new Map(),
      };
      this.partitions.set(pkey, partition);
    }
    for (const guid of normalized) partition.members.set(guid, { ...member });
  }

  /** `POST /actions/remove_guids_from_pkey`: a partition left empty disappears (the default one stays). */
  unbind(pkey: Pkey, guids: readonly string[]): void {
    const partition = this.partitions.get(pkey);
    if (!partition) throw new SimulatorRequestError(404, `pkey ${formatPkey(pkey)} not found`);
    for (const guid of guids) partition.members.delete(normalizeIbGuid(guid));
    if (partition.members.size === 0 && pkey !== DEFAULT_PKEY) this.partitions.delete(pkey);
  }

  updateQos(pkey: Pkey, qos: UfmQosConf): void {
    const partition = this.partitions.get(pkey);
    if (!partition) throw new SimulatorRequestError(404, `pkey ${formatPkey(pkey)} not found`);
    partition.qos = { ...qos };
  }

  partitionEntry(partition: SimulatedPartition, guids: boolean, qos: boolean): UfmPartition {
    const entry: UfmPartition = { partition: partition.name, ip_over_ib: partition.ipOverIb };
    if (qos) entry.qos_conf = { ...partition.qos };
    if (guids) {
      entry.guids = [...partition.members].map(([guid, member]) => ({ guid, ...member }));
      // UFM ≥ 6.19 reports the default partition's membership, and only with GUIDs.
      if (partition.pkey === DEFAULT_PKEY) entry.membership = this.security.defaultMembership;
    }
    return entry;
  }

  smConfig(): UfmSmConfig {
    return {
      subnet_prefix: this.security.subnetPrefix,
      m_key: this.security.mKey,
      sm_key: this.security.smKey,
      sa_key: this.security.saKey,
      m_key_per_port: this.security.mKeyPerPort,
    };
  }

  portEntries(): UfmPort[] {
    return [...this.ports.values()].map((port) => ({
      guid: port.guid,
      name: port.name,
      systemID: port.systemId,
      lid: port.lid,
      dname: port.deviceName,
      system_name: port.systemName,
      physical_state: port.physicalState,
      logical_state: port.logicalState,
    }));
  }

  private defaultPartition(): SimulatedPartition {
    const partition = this.partitions.get(DEFAULT_PKEY);
    if (!partition) throw new Error("the default partition is missing");
    return partition;
  }
}
