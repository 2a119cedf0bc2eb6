import type { SchemaObject } from "ajv";
import { ROLES, type Role } from "../api/index.js";

/** `auth.oidc`: an external identity provider whose tokens the service accepts. */
export interface OidcConfig {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The claim holding the role (a string or a list of strings). */
  roleClaim?: string;
  /** Claim value → role; absent: a value that is a role name maps to itself. */
  roles?: Record<string, Role>;
  tenantClaim?: string;
  subjectClaim?: string;
}

/** The `auth` section as written. Absent: authentication is not configured, and only loopback is served. */
export interface AuthConfig {
  issuer?: string;
  signingKeyFile?: string;
  adminTokenFile?: string;
  bootstrapAdminToken?: boolean;
  /** How long a replica trusts that a service token is not revoked before asking the database again. */
  revocationCheckMs?: number;
  oidc?: OidcConfig;
}

export const DEFAULT_ISSUER = "racksmith";
export const DEFAULT_ROLE_CLAIM = "racksmith_role";
export const DEFAULT_TENANT_CLAIM = "racksmith_tenant";
export const DEFAULT_REVOCATION_CHECK_MS = 5_000;
export const SIGNING_KEY_FILE = "auth/signing-key.jwk";
export const ADMIN_TOKEN_FILE = "admin.token";

/** The `auth` section: service-issued tokens, an external OIDC provider; every key with its default. */
export const AUTH_CONFIG_SCHEMA: SchemaObject = {
  description:
    "Who may call the APIs. Every call but /healthz, /readyz, /metrics, /openapi.json and Version needs a bearer token: one this service issued (racksmith token create) or one from the OIDC provider below. Default: absent, so the service listens on loopback only and writes an admin token to the data directory on its first start.",
  type: "object",
  additionalProperties: false,
  properties: {
    issuer: {
      type: "string",
      minLength: 1,
      maxLength: 256,
      description: `The iss of tokens this service issues; replicas sharing a database share it. Default "${DEFAULT_ISSUER}".`,
    },
    signingKeyFile: {
      type: "string",
      minLength: 1,
      description: `This replica's Ed25519 key signing the tokens it issues (created, mode 0600, when missing; its public half goes to the database so every replica verifies them). Default <dataDir>/${SIGNING_KEY_FILE}.`,
    },
    adminTokenFile: {
      type: "string",
      minLength: 1,
      description: `Where the first start writes an admin token (mode 0600), which the CLI on this machine finds. Default <dataDir>/${ADMIN_TOKEN_FILE}.`,
    },
    bootstrapAdminToken: {
      type: "boolean",
      description:
        "Write an admin token to adminTokenFile when it holds none that still works. Default true.",
    },
    revocationCheckMs: {
      type: "integer",
      minimum: 0,
      maximum: 300_000,
      description: `How long a replica trusts that a service-issued token is not revoked before it asks the database again (the replica that revokes it refuses it at once). Default ${DEFAULT_REVOCATION_CHECK_MS}.`,
    },
    oidc: {
      description: "An external OpenID Connect identity provider whose JWTs are accepted. Default: none.",
      type: "object",
      additionalProperties: false,
      required: ["issuer", "audience", "jwksUrl"],
      properties: {
        issuer: {
          type: "string",
          minLength: 1,
          maxLength: 1024,
          description: "Its iss, exactly (required, no default).",
        },
        audience: {
          type: "string",
          minLength: 1,
          maxLength: 1024,
          description: "The aud the tokens must carry (required, no default).",
        },
        jwksUrl: {
          type: "string",
          pattern: "^https?://",
          maxLength: 2048,
          description:
            "Its JSON Web Key Set, fetched and cached, refetched for an unknown key id (required, no default).",
        },
        roleClaim: {
          type: "string",
          minLength: 1,
          description: `The claim naming the role (a string or a list). Default "${DEFAULT_ROLE_CLAIM}".`,
        },
        roles: {
          type: "object",
          additionalProperties: { type: "string", enum: [...ROLES] },
          description:
            "Claim value → role (admin, operator, tenant, agent, viewer). Default: a value that is a role name is that role.",
        },
        tenantClaim: {
          type: "string",
          minLength: 1,
          description: `The claim naming a tenant caller's org. Default "${DEFAULT_TENANT_CLAIM}".`,
        },
        subjectClaim: {
          type: "string",
          minLength: 1,
          description: 'The claim naming the caller in the audit log. Default "sub".',
        },
      },
    },
  },
};
