import type { ColumnType, Generated } from "kysely";
import type { Role } from "../api/index.js";
import type { JsonColumn, JsonObject, Timestamp } from "../db/index.js";

type NullableText = ColumnType<string | null, string | null | undefined, string | null>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

/** A replica's token-signing public key (migration 0011_auth). */
export interface AuthSigningKeysTable {
  kid: string;
  public_jwk: JsonColumn<JsonObject>;
  created_at: Timestamp;
}

/** A token the service issued: who it names; the token itself is never stored. */
export interface AuthTokensTable {
  id: string;
  subject: string;
  role: ColumnType<Role, Role, Role>;
  tenant: NullableText;
  machine: NullableText;
  description: string;
  created_by: string;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** One mutating call: who, what, on what, how it ended. */
export interface AuditLogTable {
  id: Generated<string>;
  at: Timestamp;
  actor: string;
  role: string;
  tenant: NullableText;
  operation: string;
  target: string;
  result: string;
  request_id: string;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    auth_signing_keys: AuthSigningKeysTable;
    auth_tokens: AuthTokensTable;
    audit_log: AuditLogTable;
  }
}
