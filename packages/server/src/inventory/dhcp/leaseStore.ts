import { isIP } from "node:net";
import { InvalidArgumentError } from "@racksmith/core";
import { type Kysely, type Selectable, sql } from "kysely";
import { quoted } from "../../api/index.js";
import { type Database, isUniqueViolation, type RacksmithDatabase } from "../../db/index.js";
import type { BmcEndpoint, DhcpDiscovery, DhcpLease } from "../contracts.js";
import { DhcpContendedError, DhcpPoolExhaustedError } from "../errors.js";
import { type Ipv4Pool, numberToIpv4 } from "../ipv4.js";
import { requireMac } from "../requireMac.js";
import type { DhcpLeasesTable } from "../tables.js";
import { notifyBmcEndpointsChanged } from "./endpointsChanged.js";
import { preferredAddress } from "./poolStart.js";

type LeaseRow = Selectable<DhcpLeasesTable>;

/** A MAC's static address (its expected machine's) and its lease, as one discovery reads them. */
interface KnownAddresses {
  static_address: string | null;
  // bigint columns: PostgreSQL's driver answers them as text.
  static_ipv4: number | string | null;
  leased_address: string | null;
  leased_ipv4: number | string | null;
  leased_static: boolean | null;
}

function ipv4Of(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

// Attempts of one discovery that concurrent ones may beat (each time one of them wins an address).
const MAX_ATTEMPTS = 20;

function toLease(row: LeaseRow): DhcpLease {
  return {
    mac: row.mac,
    address: row.address,
    vendorClass: row.vendor_class,
    relay: row.relay,
    static: row.static,
    updatedAt: row.updated_at.toISOString(),
  };
}

function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || /\p{Cc}/u.test(value) || value.length > 256) {
    throw new InvalidArgumentError(`${field}: must be printable text of at most 256 characters`);
  }
  return value.trim() || null;
}

/**
 * DHCP leases for BMC MACs. An expected machine's static address wins; otherwise a MAC keeps its pool
 * address for good, and a new MAC gets the first free address from a point its MAC hashes to. A MAC's first
 * lease, or a lease at a new address, is announced on `BMC_ENDPOINTS_CHANGED_TOPIC` (a renewal is not).
 */
export class DhcpLeaseStore {
  constructor(
    private readonly database: Database,
    private readonly pool: Ipv4Pool,
  ) {}

  async discover(discovery: DhcpDiscovery): Promise<DhcpLease> {
    const mac = requireMac(discovery.mac, "mac");
    const vendorClass = optionalText(discovery.vendorClass, "vendorClass");
    const relay = optionalText(discovery.relay, "relay");
    if (relay !== null && !isIP(relay))
      throw new InvalidArgumentError(`relay: ${quoted(relay)} is not an IP address`);
    // No lock and no transaction, so discoveries run side by side (a site registering thousands of BMCs): the
    // pool's unique index refuses an address another discovery took meanwhile, and the write applies only if
    // the MAC's lease is still the one read. Either way this discovery is decided again.
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const lease = await this.tryDiscover(mac, vendorClass, relay);
      if (lease) return lease;
    }
    throw new DhcpContendedError(mac, MAX_ATTEMPTS);
  }

  /** One attempt: the lease as decided from what was read, or undefined when a concurrent change won. */
  private async tryDiscover(
    mac: string,
    vendorClass: string | null,
    relay: string | null,
  ): Promise<DhcpLease | undefined> {
    const { db } = this.database;
    const { rows } = await sql<KnownAddresses>`
      SELECT e.bmc_address AS static_address, e.bmc_address_ipv4 AS static_ipv4,
             l.address AS leased_address, l.address_ipv4 AS leased_ipv4, l.static AS leased_static
      FROM (SELECT 1) AS one
      LEFT JOIN expected_machines e ON e.bmc_mac = ${mac}
      LEFT JOIN dhcp_leases l ON l.mac = ${mac}`.execute(db);
    const known = rows[0] as KnownAddresses;
    const leased = known.leased_address;
    const leasedIpv4 = ipv4Of(known.leased_ipv4);
    const address: { text: string; ipv4: number | null; static: boolean } = known.static_address
      ? { text: known.static_address, ipv4: ipv4Of(known.static_ipv4), static: true }
      : leased !== null && !known.leased_static && this.inPool(leasedIpv4)
        ? { text: leased, ipv4: leasedIpv4, static: false }
        : await this.allocate(mac);
    const now = new Date();
    let row: LeaseRow | undefined;
    try {
      row = await db
        .insertInto("dhcp_leases")
        .values({
          mac,
          address: address.text,
          address_ipv4: address.ipv4,
          vendor_class: vendorClass,
          relay,
          static: address.static,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) =>
          conflict
            .column("mac")
            .doUpdateSet((excluded) => ({
              address: excluded.ref("excluded.address"),
              address_ipv4: excluded.ref("excluded.address_ipv4"),
              static: excluded.ref("excluded.static"),
              // A discovery without them keeps what an earlier one said.
              vendor_class: sql<string | null>`COALESCE(excluded.vendor_class, dhcp_leases.vendor_class)`,
              relay: sql<string | null>`COALESCE(excluded.relay, dhcp_leases.relay)`,
              updated_at: excluded.ref("excluded.updated_at"),
            }))
            // The lease read is still there: else a concurrent discovery of this MAC came first.
            .where((eb) => (leased === null ? eb.lit(false) : eb("dhcp_leases.address", "=", leased))),
        )
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      // Another MAC took the pool address meanwhile.
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
    if (!row) return undefined;
    // A new BMC or a new address for it is worth exploring soon; a plain renewal is not.
    if (leased !== row.address) await notifyBmcEndpointsChanged(db, this.database.schema, [mac]);
    return toLease(row);
  }

  async list(): Promise<DhcpLease[]> {
    const rows = await this.database.db.selectFrom("dhcp_leases").selectAll().orderBy("mac").execute();
    return rows.map(toLease);
  }

  /** Every lease and every expected machine's static address, one per MAC (the static address wins). */
  async bmcEndpoints(): Promise<BmcEndpoint[]> {
    const leases = await this.database.db
      .selectFrom("dhcp_leases")
      .select(["mac", "address", "created_at"])
      .execute();
    const statics = await this.database.db
      .selectFrom("expected_machines")
      .select(["bmc_mac as mac", "bmc_address as address", "created_at"])
      .where("bmc_address", "is not", null)
      .execute();
    const byMac = new Map<string, BmcEndpoint>();
    for (const { mac, address, created_at } of [...leases, ...statics]) {
      if (!address) continue;
      const seen = byMac.get(mac)?.firstSeenAt;
      byMac.set(mac, { address, mac, firstSeenAt: seen && seen < created_at ? seen : created_at });
    }
    return [...byMac.values()].sort((a, b) => a.mac.localeCompare(b.mac));
  }

  private inPool(ipv4: number | null): boolean {
    return ipv4 !== null && ipv4 >= this.pool.first && ipv4 <= this.pool.last;
  }

  /** The first address from the MAC's preferred point (wrapping around) that no lease or static address holds. */
  private async allocate(mac: string): Promise<{ text: string; ipv4: number; static: false }> {
    let from = preferredAddress(this.pool, mac);
    for (let scanned = 0; scanned < this.pool.size; ) {
      const to = Math.min(from + WINDOW - 1, this.pool.last);
      const taken = await takenAddresses(this.database.db, from, to, mac);
      for (let candidate = from; candidate <= to; candidate++) {
        if (!taken.has(candidate)) return { text: numberToIpv4(candidate), ipv4: candidate, static: false };
      }
      scanned += to - from + 1;
      from = to === this.pool.last ? this.pool.first : to + 1;
    }
    throw new DhcpPoolExhaustedError(this.pool.cidr);
  }
}

// Addresses examined per query while looking for a free one (index range scans, in address order).
const WINDOW = 256;

/** Addresses in [from, to] held by another MAC's lease or reserved as an expected machine's static address. */
async function takenAddresses(
  db: Kysely<RacksmithDatabase>,
  from: number,
  to: number,
  mac: string,
): Promise<Set<number>> {
  const rows = await db
    .selectFrom("dhcp_leases")
    .select("address_ipv4 as ipv4")
    .where("address_ipv4", ">=", from)
    .where("address_ipv4", "<=", to)
    .where("mac", "<>", mac)
    .unionAll(
      db
        .selectFrom("expected_machines")
        .select("bmc_address_ipv4 as ipv4")
        .where("bmc_address_ipv4", ">=", from)
        .where("bmc_address_ipv4", "<=", to),
    )
    .execute();
  return new Set(rows.flatMap((row) => (row.ipv4 === null ? [] : [Number(row.ipv4)])));
}
