import { createHash } from "node:crypto";
import type { Ipv4Pool } from "../ipv4.js";

/**
 * Where a MAC's search for a free pool address starts: a hash of the MAC, so a MAC tends to get the same
 * address even from an empty table (a rebuilt database), and MACs spread over the pool instead of piling up
 * at its start.
 */
export function preferredAddress(pool: Ipv4Pool, mac: string): number {
  const digest = createHash("sha256").update(mac).digest();
  return pool.first + (digest.readUInt32BE(0) % pool.size);
}
