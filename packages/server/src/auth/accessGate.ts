import { decodeJwt } from "jose";
import {
  type AccessGate,
  type CallCredentials,
  type Caller,
  type CallOutcome,
  excerpt,
  type Operation,
  operationKey,
} from "../api/index.js";
import { type AccessRule, accessRuleOf } from "./accessTable.js";
import type { AuditLog } from "./audit/auditLog.js";
import { agentOfCertificate } from "./certificates/peerMachine.js";
import { PermissionDeniedError, UnauthenticatedError } from "./errors.js";
import type { OidcTokens } from "./tokens/oidc.js";
import type { ServiceTokens } from "./tokens/serviceTokens.js";

/** Verified tokens kept per replica, so a busy caller's signature is not checked on every call. */
const MAX_CACHED_TOKENS = 10_000;
/** How long an identity provider's token is trusted before it is verified again. */
const OIDC_RECHECK_MS = 60_000;
/** A bearer token longer than this is refused before it is decoded. */
const MAX_TOKEN_LENGTH = 8192;

export interface TokenGateOptions {
  serviceTokens: ServiceTokens;
  oidc?: OidcTokens;
  audit?: AuditLog;
  /** How long a verified service token is trusted before its row is read again (revocation elsewhere). */
  revocationCheckMs: number;
  /** Extra rules (a test's stub routes). */
  extraRules?: Readonly<Record<string, AccessRule>>;
  now?: () => number;
}

interface CachedCaller {
  caller: Caller;
  /** When it must be verified again: its expiry, or the revocation check. */
  until: number;
}

/**
 * The access gate of both APIs: a bearer token (this service's or the identity provider's, told apart by
 * its issuer) becomes a caller, and the authorization table decides whether that caller may make the
 * operation. Callers are cached per token until their recheck; a revoke here drops them at once.
 */
export class TokenGate implements AccessGate {
  private readonly cache = new Map<string, CachedCaller>();
  private readonly now: () => number;

  constructor(private readonly options: TokenGateOptions) {
    this.now = options.now ?? Date.now;
  }

  covers(operation: Operation): boolean {
    return this.rule(operation) !== undefined;
  }

  mutates(operation: Operation): boolean {
    const rule = this.rule(operation);
    return rule?.mutates === true && rule.audited !== false;
  }

  async admit(operation: Operation, credentials: CallCredentials): Promise<Caller | undefined> {
    const rule = this.rule(operation);
    if (!rule) throw new PermissionDeniedError(`${operationKey(operation)} has no authorization rule`);
    const caller = credentials.verifiedPeer
      ? agentOfCertificate(credentials.verifiedPeer, this.now())
      : await this.tokenCaller(operation, rule, credentials.authorization);
    if (caller === undefined) return undefined;
    if (rule.roles === "public") return caller;
    if (rule.certificateOnly && caller.proof !== "certificate") {
      throw new PermissionDeniedError(
        `${operationKey(operation)} is called over the machine's certificate, on the agent listener`,
      );
    }
    if (!rule.roles.includes(caller.role)) {
      throw new PermissionDeniedError(
        `role ${caller.role} may not call ${operationKey(operation)} (allowed: ${rule.roles.join(", ")})`,
      );
    }
    // An empty machine id is the handler's to refuse (INVALID_ARGUMENT), not a question of scope.
    if (rule.scope === "machine" && caller.role === "agent" && credentials.machine) {
      if (credentials.machine !== caller.machine) {
        throw new PermissionDeniedError(
          `the agent of machine ${caller.machine} may not call ${operationKey(operation)} about machine ${excerpt(credentials.machine, 80)}`,
        );
      }
    }
    return caller;
  }

  async record(outcome: CallOutcome): Promise<void> {
    await this.options.audit?.record(outcome);
  }

  /** Forgets the callers of a token revoked here, so this replica refuses it at once. */
  forgetToken(tokenId: string): void {
    for (const [token, cached] of this.cache) if (cached.caller.tokenId === tokenId) this.cache.delete(token);
  }

  private rule(operation: Operation): AccessRule | undefined {
    return accessRuleOf(operation, this.options.extraRules);
  }

  /** The token's caller; undefined for a public operation called without one. */
  private async tokenCaller(
    operation: Operation,
    rule: AccessRule,
    authorization: string | undefined,
  ): Promise<Caller | undefined> {
    const token = bearerToken(authorization);
    if (token !== undefined) return this.authenticate(token);
    if (rule.roles === "public") return undefined;
    throw new UnauthenticatedError(
      `${operationKey(operation)} needs a bearer token (Authorization: Bearer <token>; racksmith token create makes one)`,
    );
  }

  private async authenticate(token: string): Promise<Caller> {
    const now = this.now();
    const cached = this.cache.get(token);
    if (cached && cached.until > now) return cached.caller;
    this.cache.delete(token);
    const { caller, expiresAt } = await this.verify(token);
    const recheck = now + (caller.proof === "oidc" ? OIDC_RECHECK_MS : this.options.revocationCheckMs);
    const until = Math.min(recheck, expiresAt?.getTime() ?? recheck);
    if (until > now) {
      if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(token, { caller, until });
    }
    return caller;
  }

  private verify(token: string): Promise<{ caller: Caller; expiresAt: Date | null }> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new UnauthenticatedError("the bearer token is not a JWT");
    }
    if (issuer === this.options.serviceTokens.issuer) return this.options.serviceTokens.verify(token);
    if (this.options.oidc && issuer === this.options.oidc.issuer) return this.options.oidc.verify(token);
    throw new UnauthenticatedError(
      `the token's issuer ${typeof issuer === "string" ? JSON.stringify(excerpt(issuer, 100)) : "(none)"} is not trusted (auth.issuer, auth.oidc.issuer)`,
    );
  }
}

/** The token of `Bearer <token>`; undefined when no header was sent; a 401 for anything else. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header === "") return undefined;
  const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
  if (!match?.[1]) throw new UnauthenticatedError("the authorization header must be: Bearer <token>");
  if (match[1].length > MAX_TOKEN_LENGTH) {
    throw new UnauthenticatedError(`the bearer token is over ${MAX_TOKEN_LENGTH} characters`);
  }
  return match[1];
}
