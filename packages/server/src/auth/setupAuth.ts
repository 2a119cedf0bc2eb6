import { resolve } from "node:path";
import type { Logger } from "@racksmith/core";
import type { RestRoutes } from "../api/index.js";
import type { Database } from "../db/index.js";
import { TokenGate } from "./accessGate.js";
import type { AccessRule } from "./accessTable.js";
import { authRestRoutes } from "./api/restRoutes.js";
import { AuditLog } from "./audit/auditLog.js";
import {
  ADMIN_TOKEN_FILE,
  type AuthConfig,
  DEFAULT_ISSUER,
  DEFAULT_REVOCATION_CHECK_MS,
  SIGNING_KEY_FILE,
} from "./config.js";
import { ensureAdminTokenFile, issueBootstrapToken } from "./tokens/adminTokenFile.js";
import { OidcTokens } from "./tokens/oidc.js";
import { ServiceTokens } from "./tokens/serviceTokens.js";
import { loadSigningKey } from "./tokens/signingKey.js";
import { TokenStore } from "./tokens/tokenStore.js";

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
  const rest = authRestRoutes({ tokens, audit, onRevoked: (id) => gate.forgetToken(id) });
  return { gate, tokens, audit, adminToken, adminTokenFile, rest };
}
