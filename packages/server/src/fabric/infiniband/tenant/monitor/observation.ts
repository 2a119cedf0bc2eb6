import type {
  IbGuid,
  InfiniBandPortState,
  InfiniBandSecurityFinding,
  Pkey,
} from "@racksmith/core/infiniband";

/** One of the host's ports as the monitor saw it on the fabric. */
export interface IbInterfaceObservation {
  guid: IbGuid;
  /** 0xffff unless the port is active (NICo's rule). */
  lid: number;
  /** `unknown` when the fabric does not know the GUID. */
  state: InfiniBandPortState;
  /** Every pkey the GUID is bound to (the default partition and foreign pkeys included), sorted. */
  pkeys: Pkey[];
}

/** Stored per host (`ib_host_observations.observation`); written only when its content changed. */
export interface HostIbObservation {
  observedAt: string;
  interfaces: IbInterfaceObservation[];
}

/** The monitor's last contact with the fabric (`ib_fabric_health`): the fabric's health as the API shows it. */
export interface IbFabricHealth {
  fabric: string;
  observedAt: string;
  /** False when the last run could not read the fabric (then `error` says why). */
  reachable: boolean;
  error?: string;
  version?: string;
  partitions?: number;
  ports?: Record<string, number>;
  /** Insecure subnet manager settings (empty: secure). */
  securityFindings: InfiniBandSecurityFinding[];
  /** `fabrics.infiniband.allowInsecureFabric`: the operator accepts the findings. */
  allowInsecure: boolean;
}
