import { resolve } from "node:path";
import type { Logger } from "@racksmith/core";
import type { RestRoutes } from "../api/index.js";
import type { Database } from "../db/index.js";
import { TokenGate } from "./accessGate.js";
import type { AccessRule } from "./accessTable.js";
import { authRestRoutes } from "./api/restRoutes.js";
import { AuditLog } from "./audit/auditLog.js";
import { AgentCa } from "./certificates/agentCa.js";
import { CaAgentCertificates } from "./certificates/agentCertificates.js";
import {
  ADMIN_TOKEN_FILE,
  AGENT_CA_CERT_FILE,
  AGENT_CA_KEY_FILE,
  type AuthConfig,
  DEFAULT_AGENT_CERTIFICATE_TTL_MS,
  DEFAULT_ISSUER,
  DEFAULT_REVOCATION_CHECK_MS,
  DEFAULT_WORKLOAD_IDENTITY_TTL_MS,
  SIGNING_KEY_FILE,
  WORKLOAD_IDENTITY_SECRET_FILE,
} from "./config.js";
import { ensureAdminTokenFile, issueBootstrapToken } from "./tokens/adminTokenFile.js";
import { OidcTokens } from "./tokens/oidc.js";
import { ServiceTokens } from "./tokens/serviceTokens.js";
import { loadSigningKey } from "./tokens/signingKey.js";
import { TokenStore } from "./tokens/tokenStore.js";
import { workloadIdentityRestRoutes } from "./workloadIdentity/restRoutes.js";
import { TenantKeys } from "./workloadIdentity/tenantKeys.js";
import { WorkloadIdentities } from "./workloadIdentity/workloadIdentities.js";

export interface AuthSetupOptions {
  config: AuthConfig | undefined;
  database: Database;
  /** Where the signing key and the admin token file go; undefined for an in-memory service (kept in memory). */
  dataDir: string | undefined;
  /** Relative key and token paths resolve from here (the config file's folder). */
  baseDir: string;
  logger: Logger;
  /** Rules for routes outside the table (tests' stub routes). */
  extraRules?: Readonly<Record<string, AccessRule>>;
}

export interface Auth {
  gate: TokenGate;
  tokens: ServiceTokens;
  audit: AuditLog;
  /** The bootstrap admin token (absent when `auth.bootstrapAdminToken` is false). */
  adminToken: string | undefined;
  /** Where it was written (absent in memory). */
  adminTokenFile: string | undefined;
  rest: RestRoutes;
  /** The agents' CA, which also certifies the agent listener. */
  agentCa: AgentCa;
  /** Machine certificates for the lifecycle's agent API. */
  agentCertificates: CaAgentCertificates;
  /** Tenants' workload identities (JWT-SVIDs) for the lifecycle's agent API. */
  workloadIdentities: WorkloadIdentities;
}

/**
 * Authentication for a starting service: this replica's signing key (its public half published), the
 * identity provider when configured, the audit log, the gate both APIs ask, and the bootstrap admin token.
 */
export async function setupAuth(options: AuthSetupOptions): Promise<Auth> {
  const config = options.config ?? {};
  const { database, dataDir, baseDir } = options;
  const keyFile = config.signingKeyFile
    ? resolve(baseDir, config.signingKeyFile)
    : dataDir && resolve(dataDir, SIGNING_KEY_FILE);
  const key = await loadSigningKey(keyFile);
  const tokens = new ServiceTokens(new TokenStore(database.db), key, config.issuer ?? DEFAULT_ISSUER);
  await tokens.publishKey();
  const audit = new AuditLog(database.db, options.logger);
  const gate = new TokenGate({
    serviceTokens: tokens,
    ...(config.oidc ? { oidc: new OidcTokens(config.oidc) } : {}),
    audit,
    revocationCheckMs: config.revocationCheckMs ?? DEFAULT_REVOCATION_CHECK_MS,
    ...(options.extraRules ? { extraRules: options.extraRules } : {}),
  });
  let adminToken: string | undefined;
  let adminTokenFile: string | undefined;
  if (config.bootstrapAdminToken !== false) {
    adminTokenFile = config.adminTokenFile
      ? resolve(baseDir, config.adminTokenFile)
      : dataDir && resolve(dataDir, ADMIN_TOKEN_FILE);
    adminToken = adminTokenFile
      ? await ensureAdminTokenFile(tokens, adminTokenFile)
      : (await issueBootstrapToken(tokens)).token;
  }
  const secretFile = config.workloadIdentitySecretFile
    ? resolve(baseDir, config.workloadIdentitySecretFile)
    : dataDir && resolve(dataDir, WORKLOAD_IDENTITY_SECRET_FILE);
  const workloadIdentities = new WorkloadIdentities(
    await TenantKeys.open(secretFile),
    config.workloadIdentityTtlMs ?? DEFAULT_WORKLOAD_IDENTITY_TTL_MS,
  );
  if (config.publicUrl) workloadIdentities.announce(config.publicUrl);
  const tokenRoutes = authRestRoutes({ tokens, audit, onRevoked: (id) => gate.forgetToken(id) });
  const identityRoutes = workloadIdentityRestRoutes(workloadIdentities);
  const rest: RestRoutes = (app) => {
    tokenRoutes(app);
    identityRoutes(app);
  };
  const agentCa = await AgentCa.open(
    config.agentCa
      ? {
          certFile: resolve(baseDir, config.agentCa.certFile),
          keyFile: resolve(baseDir, config.agentCa.keyFile),
          create: false,
        }
      : dataDir
        ? {
            certFile: resolve(dataDir, AGENT_CA_CERT_FILE),
            keyFile: resolve(dataDir, AGENT_CA_KEY_FILE),
            create: true,
          }
        : undefined,
  );
  const agentCertificates = new CaAgentCertificates(
    agentCa,
    config.agentCertificateTtlMs ?? DEFAULT_AGENT_CERTIFICATE_TTL_MS,
  );
  return {
    gate,
    tokens,
    audit,
    adminToken,
    adminTokenFile,
    rest,
    agentCa,
    agentCertificates,
    workloadIdentities,
  };
}
