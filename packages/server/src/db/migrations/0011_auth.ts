import type { Migration } from "./migration.js";

/**
 * Authentication and audit (issue 17): the public halves of every replica's token-signing key, the tokens
 * the service issued (never the token itself: its id, who it names, when it ends or was revoked), and the
 * audit log of every mutating call.
 */
export const auth: Migration = {
  name: "0011_auth",
  statements: [
    `CREATE TABLE auth_signing_keys (
      kid text PRIMARY KEY,
      public_jwk jsonb NOT NULL CHECK (jsonb_typeof(public_jwk) = 'object'),
      created_at timestamptz NOT NULL
    )`,
    `CREATE TABLE auth_tokens (
      id text PRIMARY KEY,
      subject text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'operator', 'tenant', 'agent', 'viewer')),
      tenant text,
      machine text,
      description text NOT NULL DEFAULT '',
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz,
      revoked_at timestamptz,
      CHECK ((role = 'tenant') = (tenant IS NOT NULL)),
      CHECK ((role = 'agent') = (machine IS NOT NULL))
    )`,
    `CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      role text NOT NULL,
      tenant text,
      operation text NOT NULL,
      target text NOT NULL,
      result text NOT NULL,
      request_id text NOT NULL
    )`,
    `CREATE INDEX audit_log_by_time ON audit_log (at DESC)`,
  ],
};
