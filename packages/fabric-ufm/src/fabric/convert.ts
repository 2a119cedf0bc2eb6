import {
  type IbGuid,
  type InfiniBandFabricVersions,
  type InfiniBandPartition,
  type InfiniBandPort,
  type InfiniBandPortState,
  type InfiniBandSubnetManagerConfig,
  normalizeIbGuid,
  type Pkey,
} from "@racksmith/core/infiniband";
import type { UfmPartition, UfmPort, UfmSmConfig, UfmVersion } from "../client/index.js";

/** Thrown by the converters; the adapter turns it into `fabric_bad_response` naming the request. */
export class ShapeError extends Error {}

export function toVersions(wire: UfmVersion): InfiniBandFabricVersions {
  if (typeof wire.ufm_release_version !== "string") throw new ShapeError("ufm_release_version is missing");
  return { manager: "UFM", version: wire.ufm_release_version };
}

export function toSubnetManagerConfig(wire: UfmSmConfig): InfiniBandSubnetManagerConfig {
  return {
    subnetPrefix: typeof wire.subnet_prefix === "string" ? wire.subnet_prefix : "",
    mKey: key(wire.m_key, "m_key"),
    smKey: key(wire.sm_key, "sm_key"),
    saKey: key(wire.sa_key, "sa_key"),
    mKeyPerPort: wire.m_key_per_port === true,
  };
}

/** Hex or decimal → `0x` + 16 hex digits, so the keys compare and print the same whatever UFM sent. */
function key(value: string | number | undefined, name: string): string {
  if (value === undefined) throw new ShapeError(`${name} is missing`);
  try {
    const parsed = BigInt(typeof value === "number" ? value : value.trim());
    if (parsed < 0n || parsed >= 1n << 64n) throw new RangeError();
    return `0x${parsed.toString(16).padStart(16, "0")}`;
  } catch {
    throw new ShapeError(`${name} is not a 64-bit number`);
  }
}

export function toPartition(
  pkey: Pkey,
  wire: UfmPartition,
  withGuids: boolean,
  withQos: boolean,
): InfiniBandPartition {
  if (typeof wire !== "object" || wire === null) throw new ShapeError(`partition entry is not an object`);
  const partition: InfiniBandPartition = {
    pkey,
    name: typeof wire.partition === "string" ? wire.partition : "",
    ipOverIb: wire.ip_over_ib === true,
  };
  if (withQos && wire.qos_conf) {
    const { mtu_limit, rate_limit, service_level } = wire.qos_conf;
    if (![mtu_limit, rate_limit, service_level].every((n) => typeof n === "number"))
      throw new ShapeError(`qos_conf of ${wire.partition} is not numeric`);
    partition.qos = { mtu: mtu_limit, rateLimit: rate_limit, serviceLevel: service_level };
  }
  if (withGuids) {
    // A partition UFM lists without a `guids` array has no members, which is data, not "unknown".
    partition.members = (wire.guids ?? []).map((member) => ({
      guid: guid(member.guid),
      membership: member.membership === "limited" ? "limited" : "full",
      index0: member.index0 === true,
    }));
    if (wire.membership === "full" || wire.membership === "limited")
      partition.defaultMembership = wire.membership;
  }
  return partition;
}

const PORT_STATES: Readonly<Record<string, InfiniBandPortState>> = {
  active: "active",
  down: "down",
  initialize: "initialize",
  armed: "armed",
};

export function toPort(wire: UfmPort): InfiniBandPort {
  const logicalState = typeof wire.logical_state === "string" ? wire.logical_state : "";
  const port: InfiniBandPort = {
    guid: guid(wire.guid),
    name: typeof wire.name === "string" ? wire.name : "",
    // NICo compares trimmed and case-insensitively; anything else is unknown rather than an error.
    state: PORT_STATES[logicalState.trim().toLowerCase()] ?? "unknown",
    logicalState,
    physicalState: typeof wire.physical_state === "string" ? wire.physical_state : "",
    lid: typeof wire.lid === "number" ? wire.lid : 0,
  };
  if (typeof wire.systemID === "string") port.systemId = wire.systemID;
  if (typeof wire.system_name === "string") port.systemName = wire.system_name;
  if (typeof wire.dname === "string") port.deviceName = wire.dname;
  return port;
}

function guid(value: unknown): IbGuid {
  if (typeof value !== "string") throw new ShapeError(`GUID ${JSON.stringify(value)} is not a string`);
  try {
    return normalizeIbGuid(value);
  } catch {
    throw new ShapeError(`GUID ${JSON.stringify(value)} is not 16 hex digits`);
  }
}
