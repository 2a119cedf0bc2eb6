import type { Kysely, Selectable } from "kysely";
import type { Role } from "../../api/index.js";
import type { JsonObject, RacksmithDatabase } from "../../db/index.js";
import type { AuthTokensTable } from "../tables.js";

type Db = Kysely<RacksmithDatabase>;

/** A token the service issued, as listed: never the token itself. */
export interface TokenRecord {
  id: string;
  subject: string;
  role: Role;
  tenant: string | null;
  machine: string | null;
  description: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** Issued tokens and the replicas' public signing keys, as stored; each method is one statement. */
export class TokenStore {
  constructor(private readonly db: Db) {}

  async publishKey(kid: string, publicJwk: JsonObject): Promise<void> {
    await this.db
      .insertInto("auth_signing_keys")
      .values({ kid, public_jwk: JSON.stringify(publicJwk), created_at: new Date() })
      .onConflict((conflict) => conflict.column("kid").doNothing())
      .execute();
  }

  async publicKey(kid: string): Promise<JsonObject | undefined> {
    const row = await this.db
      .selectFrom("auth_signing_keys")
      .select("public_jwk")
      .where("kid", "=", kid)
      .executeTakeFirst();
    return row?.public_jwk;
  }

  async insert(record: TokenRecord): Promise<void> {
    await this.db
      .insertInto("auth_tokens")
      .values({
        id: record.id,
        subject: record.subject,
        role: record.role,
        tenant: record.tenant,
        machine: record.machine,
        description: record.description,
        created_by: record.createdBy,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
        revoked_at: null,
      })
      .execute();
  }

  async get(id: string): Promise<TokenRecord | undefined> {
    const row = await this.db.selectFrom("auth_tokens").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<TokenRecord[]> {
    const rows = await this.db.selectFrom("auth_tokens").selectAll().orderBy("created_at").execute();
    return rows.map(toRecord);
  }

  /** Marks it revoked (once: a second revoke keeps the first time); undefined when there is no such token. */
  async revoke(id: string, at: Date): Promise<TokenRecord | undefined> {
    await this.db
      .updateTable("auth_tokens")
      .set({ revoked_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .execute();
    return this.get(id);
  }
}

function toRecord(row: Selectable<AuthTokensTable>): TokenRecord {
  return {
    id: row.id,
    subject: row.subject,
    role: row.role,
    tenant: row.tenant,
    machine: row.machine,
    description: row.description,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}
