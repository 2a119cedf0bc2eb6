import type { InfiniBandPartition, InfiniBandSubnetManagerConfig } from "./types.js";

export type InfiniBandSecuritySetting =
  | "m_key"
  | "sm_key"
  | "sa_key"
  | "m_key_per_port"
  | "default_membership";

export interface InfiniBandSecurityFinding {
  setting: InfiniBandSecuritySetting;
  /** What is insecure and what the secure value is (never the key itself). */
  message: string;
}

/**
 * NICo's checks for an insecure fabric: OpenSM's factory keys (m_key 0, sm_key 1, sa_key 1, no per-port
 * m_keys) let any host reconfigure the subnet, and full membership of the default partition lets every
 * tenant reach every other. An empty list means secure. Pass the default partition fetched with GUIDs.
 */
export function checkInfiniBandFabricSecurity(
  config: InfiniBandSubnetManagerConfig,
  defaultPartition?: InfiniBandPartition,
): InfiniBandSecurityFinding[] {
  const findings: InfiniBandSecurityFinding[] = [];
  if (keyValue(config.mKey) === 0n)
    findings.push({ setting: "m_key", message: "m_key is 0 (the factory default); set a non-zero m_key" });
  if (keyValue(config.smKey) === 1n)
    findings.push({ setting: "sm_key", message: "sm_key is 1 (the factory default); set another sm_key" });
  if (keyValue(config.saKey) === 1n)
    findings.push({ setting: "sa_key", message: "sa_key is 1 (the factory default); set another sa_key" });
  if (!config.mKeyPerPort)
    findings.push({ setting: "m_key_per_port", message: "per-port m_keys are off; turn m_key_per_port on" });
  if (defaultPartition?.defaultMembership === "full")
    findings.push({
      setting: "default_membership",
      message: "ports are full members of the default partition 0x7fff; make them limited members",
    });
  return findings;
}

/** Hex (`0x…`) or decimal; an unreadable key counts as unknown, not as insecure. */
function keyValue(text: string): bigint | undefined {
  try {
    return BigInt(text.trim());
  } catch {
    return undefined;
  }
}
