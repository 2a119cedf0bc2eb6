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
  /** The operator's CA for agent certificates (else the service makes its own in the data directory). */
  agentCa?: { certFile: string; keyFile: string };
  /** How long a machine's agent certificate is valid; agents renew it before. */
  agentCertificateTtlMs?: number;
  /** The address agents are told to reach the agent listener at (default: its own). */
  agentAddress?: string;
  /** The site secret tenants' workload identity keys are derived from. */
  workloadIdentitySecretFile?: string;
  /** How long a workload identity (JWT-SVID) is valid. */
  workloadIdentityTtlMs?: number;
  /** The service's public base URL: the issuer of tenants' workload identities is under it. */
  publicUrl?: string;
}

export const DEFAULT_ISSUER = "racksmith";
export const DEFAULT_ROLE_CLAIM = "racksmith_role";
export const DEFAULT_TENANT_CLAIM = "racksmith_tenant";
export const DEFAULT_REVOCATION_CHECK_MS = 5_000;
export const SIGNING_KEY_FILE = "auth/signing-key.jwk";
export const ADMIN_TOKEN_FILE = "admin.token";
export const AGENT_CA_CERT_FILE = "auth/agent-ca.pem";
export const AGENT_CA_KEY_FILE = "auth/agent-ca-key.pem";
export const DEFAULT_AGENT_CERTIFICATE_TTL_MS = 86_400_000;
export const WORKLOAD_IDENTITY_SECRET_FILE = "auth/workload-identity.secret";
export const DEFAULT_WORKLOAD_IDENTITY_TTL_MS = 300_000;

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
    agentCa: pemFilesSchema(
      `The CA signing agents' machine certificates and the agent listener's (PEM files; replicas with separate data directories share it this way). Default: made by the first start, <dataDir>/${AGENT_CA_CERT_FILE} and ${AGENT_CA_KEY_FILE} (0600).`,
      {
        certFile: "The CA certificate, PEM (required, no default).",
        keyFile: "Its private key, PKCS#8 PEM (required, no default).",
      },
    ),
    agentCertificateTtlMs: {
      type: "integer",
      minimum: 5_000,
      maximum: 31_536_000_000,
      description: `How long a machine's agent certificate is valid; agents renew it at two thirds of that. Default ${DEFAULT_AGENT_CERTIFICATE_TTL_MS} (a day).`,
    },
    agentAddress: {
      type: "string",
      minLength: 1,
      maxLength: 300,
      description:
        "host:port agents are told (in DiscoverMachine's answer) to reach the agent listener at. Default: server.agentGrpc as bound (the machine's host name for a wildcard address).",
    },
    workloadIdentitySecretFile: {
      type: "string",
      minLength: 1,
      description: `The secret (32+ bytes) each tenant's workload identity key is derived from; replicas share it. Default <dataDir>/${WORKLOAD_IDENTITY_SECRET_FILE}, made 0600 by the first start.`,
    },
    workloadIdentityTtlMs: {
      type: "integer",
      minimum: 10_000,
      maximum: 86_400_000,
      description: `How long a workload identity (JWT-SVID) is valid. Default ${DEFAULT_WORKLOAD_IDENTITY_TTL_MS} (5 minutes).`,
    },
    publicUrl: {
      type: "string",
      pattern: "^https?://",
      maxLength: 2048,
      description:
        "The service's base URL as workloads' verifiers reach it: tenants' identity issuers are <publicUrl>/api/v1/tenants/<org>. Default: the REST listener's http://host:port.",
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

/**
 * JSON schema of a certificate and its private key as files (`certFile`, `keyFile`, both required), with
 * each file's description, plus any `extra` file settings.
 */
export function pemFilesSchema(
  description: string,
  files: { certFile: string; keyFile: string },
  extra: Record<string, SchemaObject> = {},
): SchemaObject {
  const file = (fileDescription: string): SchemaObject => ({
    type: "string",
    minLength: 1,
    description: fileDescription,
  });
  return {
    description,
    type: "object",
    additionalProperties: false,
    required: ["certFile", "keyFile"],
    properties: { certFile: file(files.certFile), keyFile: file(files.keyFile), ...extra },
  };
}
