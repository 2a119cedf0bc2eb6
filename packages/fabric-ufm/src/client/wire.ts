/** UFM's REST payloads, as on the wire (snake_case, pkeys as `0x` strings). */

export type UfmMembership = "full" | "limited";

/** `GET /app/smconf`. Keys come as hex or decimal strings (or numbers, depending on the UFM version). */
export interface UfmSmConfig {
  subnet_prefix?: string;
  m_key?: string | number;
  sm_key?: string | number;
  sa_key?: string | number;
  m_key_per_port?: boolean;
}

/** `GET /app/ufm_version`. */
export interface UfmVersion {
  ufm_release_version: string;
}

export interface UfmQosConf {
  /** 2 (2048) or 4 (4096). */
  mtu_limit: number;
  service_level: number;
  /** Gb/s; 2.5 is SDR. */
  rate_limit: number;
}

export interface UfmPartitionGuid {
  guid: string;
  index0: boolean;
  membership: UfmMembership;
}

/** One entry of `GET /resources/pkeys` (keyed by `"0x…"`) or `GET /resources/pkeys/{pkey}`. */
export interface UfmPartition {
  partition: string;
  ip_over_ib: boolean;
  qos_conf?: UfmQosConf;
  guids?: UfmPartitionGuid[];
  /** Only for the default partition, only with GUIDs, only on UFM ≥ 6.19. */
  membership?: UfmMembership;
}

/** `POST /resources/pkeys`: adds GUIDs, creating the partition on its first one. */
export interface UfmBindRequest {
  pkey: string;
  ip_over_ib: boolean;
  membership: UfmMembership;
  index0: boolean;
  guids: string[];
}

/** `POST /actions/remove_guids_from_pkey`. */
export interface UfmUnbindRequest {
  pkey: string;
  guids: string[];
}

/** `PUT /resources/pkeys/qos_conf`. */
export interface UfmQosRequest extends UfmQosConf {
  pkey: string;
}

/** One entry of `GET /resources/ports?sys_type=Computer`. */
export interface UfmPort {
  guid: string;
  name: string;
  systemID?: string;
  lid?: number;
  dname?: string;
  system_name?: string;
  physical_state?: string;
  logical_state?: string;
}
