import { randomUUID } from "node:crypto";
import pg from "pg";

/** A claim of the engine's queue as the database holds it. */
export interface HeldClaim {
  objectType: string;
  objectId: string;
  owner: string;
  claimCount: number;
  leaseExpiresAt: Date;
}

/**
 * One scenario's corner of a shared PostgreSQL: a fresh schema (made by the service on its first start,
 * dropped by {@link drop}), an `application_name` per replica so this scenario's connections — and only
 * them — can be found in `pg_stat_activity`, and a small admin pool of the runner's own.
 */
export class ChaosDatabase {
  private constructor(
    private readonly baseUrl: string,
    /** `chaos_kill_0123456789ab`. */
    readonly schema: string,
    /** The short id shared by the schema and the application names. */
    readonly id: string,
    private readonly admin: pg.Pool,
  ) {}

  static async open(baseUrl: string, label: string): Promise<ChaosDatabase> {
    const id = randomUUID().replace(/-/g, "").slice(0, 12);
    const schema = `chaos_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${id}`;
    const admin = new pg.Pool({
      connectionString: withApplicationName(baseUrl, `racksmith-chaos-${id}-admin`),
      max: 2,
      connectionTimeoutMillis: 10_000,
    });
    // An idle admin connection that fails is replaced on the next query; it must not crash the runner.
    admin.on("error", () => undefined);
    await admin.query("SELECT 1");
    return new ChaosDatabase(baseUrl, schema, id, admin);
  }

  /** The `application_name` of a replica's connections (at most 63 bytes, PostgreSQL's limit). */
  applicationName(replica: string): string {
    return `racksmith-chaos-${this.id}-${replica}`;
  }

  /** The URL a replica connects with: the base URL plus its `application_name`, which PostgreSQL reports. */
  serviceUrl(replica: string): string {
    return withApplicationName(this.baseUrl, this.applicationName(replica));
  }

  /** The backend pids of a replica's connections right now. */
  async connections(replica: string): Promise<number[]> {
    const { rows } = await this.admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
      [this.applicationName(replica)],
    );
    return rows.map((row) => row.pid);
  }

  /** Terminates every connection of one replica (pool and LISTEN alike); returns how many. */
  async terminate(replica: string): Promise<number> {
    const { rows } = await this.admin.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
       WHERE application_name = $1 AND pid <> pg_backend_pid()`,
      [this.applicationName(replica)],
    );
    return rows.filter((row) => row.terminated).length;
  }

  /** Claims of the engine queue held right now (lease not expired), optionally by one owner. */
  async liveClaims(owner?: string): Promise<HeldClaim[]> {
    const { rows } = await this.admin.query<{
      object_type: string;
      object_id: string;
      owner: string;
      claim_count: number;
      lease_expires_at: Date;
    }>(
      `SELECT object_type, object_id, owner, claim_count, lease_expires_at
       FROM ${this.schema}.state_queue
       WHERE owner IS NOT NULL AND lease_expires_at > now() ${owner ? "AND owner = $1" : ""}
       ORDER BY object_id`,
      owner ? [owner] : [],
    );
    return rows.map((row) => ({
      objectType: row.object_type,
      objectId: row.object_id,
      owner: row.owner,
      claimCount: Number(row.claim_count),
      leaseExpiresAt: row.lease_expires_at,
    }));
  }

  /** Drops the schema (the services must be gone) and closes the admin pool. */
  async drop(): Promise<void> {
    try {
      await this.admin.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
    } finally {
      await this.admin.end();
    }
  }
}

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("application_name", name);
  return parsed.toString();
}
