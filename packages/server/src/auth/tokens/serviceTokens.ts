import { createPublicKey, type JsonWebKey, type KeyObject, randomUUID } from "node:crypto";
import { InvalidArgumentError } from "@racksmith/core";
import { type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { type Caller, excerpt, ROLES, type Role } from "../../api/index.js";
import { TokenNotFoundError, UnauthenticatedError } from "../errors.js";
import type { SigningKey } from "./signingKey.js";
import type { TokenRecord, TokenStore } from "./tokenStore.js";

/** The `aud` of every token this service issues. */
export const SERVICE_AUDIENCE = "racksmith";
export const ROLE_CLAIM = "racksmith_role";
export const TENANT_CLAIM = "racksmith_tenant";
export const MACHINE_CLAIM = "racksmith_machine";

/** What `racksmith token create` asks for. */
export interface TokenRequest {
  role: Role;
  /** Who the token names in the audit log (default: the role and its tenant or machine). */
  subject?: string;
  tenant?: string;
  machine?: string;
  description?: string;
  /** Absent: the token does not expire (it can still be revoked). */
  expiresAt?: Date;
}

export interface IssuedToken {
  /** The bearer token: shown once, never stored. */
  token: string;
  record: TokenRecord;
}

/** What a token request must hold; the message names the field. */
export function tokenRequestProblem(request: TokenRequest, now: Date): string | undefined {
  if (!ROLES.includes(request.role)) return `role must be one of ${ROLES.join(", ")}`;
  if ((request.role === "tenant") !== (request.tenant !== undefined)) {
    return request.role === "tenant"
      ? "tenant is required for the tenant role"
      : "tenant is only for the tenant role";
  }
  if ((request.role === "agent") !== (request.machine !== undefined)) {
    return request.role === "agent"
      ? "machine is required for the agent role"
      : "machine is only for the agent role";
  }
  if (request.expiresAt && request.expiresAt.getTime() <= now.getTime())
    return "expiresAt must be in the future";
  return undefined;
}

/**
 * Tokens this service issues: JWTs signed with this replica's Ed25519 key, verified with any replica's
 * published public key, each backed by a row so it can be listed and revoked.
 */
export class ServiceTokens {
  private readonly publicKeys = new Map<string, KeyObject>();

  constructor(
    private readonly store: TokenStore,
    private readonly key: SigningKey,
    readonly issuer: string,
  ) {
    this.publicKeys.set(key.kid, createPublicKey(key.privateKey));
  }

  /** Publishes this replica's public key, so every replica sharing the database verifies its tokens. */
  async publishKey(): Promise<void> {
    await this.store.publishKey(this.key.kid, this.key.publicJwk);
  }

  async issue(request: TokenRequest, createdBy: string, now = new Date()): Promise<IssuedToken> {
    const problem = tokenRequestProblem(request, now);
    if (problem) throw new InvalidArgumentError(problem);
    const id = randomUUID();
    const record: TokenRecord = {
      id,
      subject: request.subject ?? defaultSubject(request),
      role: request.role,
      tenant: request.tenant ?? null,
      machine: request.machine ?? null,
      description: request.description ?? "",
      createdBy,
      createdAt: now,
      expiresAt: request.expiresAt ?? null,
      revokedAt: null,
    };
    await this.store.insert(record);
    let jwt = new SignJWT({
      [ROLE_CLAIM]: record.role,
      ...(record.tenant !== null ? { [TENANT_CLAIM]: record.tenant } : {}),
      ...(record.machine !== null ? { [MACHINE_CLAIM]: record.machine } : {}),
    })
      .setProtectedHeader({ alg: "EdDSA", kid: this.key.kid, typ: "JWT" })
      .setIssuer(this.issuer)
      .setAudience(SERVICE_AUDIENCE)
      .setSubject(record.subject)
      .setJti(id)
      .setIssuedAt(Math.floor(now.getTime() / 1000));
    if (record.expiresAt) jwt = jwt.setExpirationTime(Math.floor(record.expiresAt.getTime() / 1000));
    return { token: await jwt.sign(this.key.privateKey), record };
  }

  /** The token's caller: signature, issuer, audience and expiry checked, then its row (revoked, unknown). */
  async verify(token: string): Promise<{ caller: Caller; expiresAt: Date | null }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header) => this.publicKey(header.kid), {
        issuer: this.issuer,
        audience: SERVICE_AUDIENCE,
        algorithms: ["EdDSA"],
      }));
    } catch (error) {
      throw verificationFailure(error);
    }
    const id = typeof payload.jti === "string" ? payload.jti : "";
    const record = id ? await this.store.get(id) : undefined;
    if (!record)
      throw new UnauthenticatedError(
        "the token is not known to this service (deleted or from another deployment)",
      );
    if (record.revokedAt) {
      throw new UnauthenticatedError(`token ${record.id} was revoked at ${record.revokedAt.toISOString()}`);
    }
    return { caller: callerOf(record), expiresAt: record.expiresAt };
  }

  list(): Promise<TokenRecord[]> {
    return this.store.list();
  }

  async revoke(id: string, now = new Date()): Promise<TokenRecord> {
    const record = await this.store.revoke(id, now);
    if (!record) throw new TokenNotFoundError(id);
    return record;
  }

  private async publicKey(kid: string | undefined): Promise<KeyObject> {
    if (!kid) throw new UnauthenticatedError("the token names no signing key (kid)");
    const cached = this.publicKeys.get(kid);
    if (cached) return cached;
    const jwk = await this.store.publicKey(kid);
    if (!jwk) throw new UnauthenticatedError("the token is signed with a key this service does not know");
    const key = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" });
    this.publicKeys.set(kid, key);
    return key;
  }
}

function defaultSubject(request: TokenRequest): string {
  const bound = request.tenant ?? request.machine;
  return bound ? `${request.role}:${bound}` : request.role;
}

function callerOf(record: TokenRecord): Caller {
  return {
    subject: record.subject,
    role: record.role,
    ...(record.tenant !== null ? { tenant: record.tenant } : {}),
    ...(record.machine !== null ? { machine: record.machine } : {}),
    tokenId: record.id,
    proof: "service-token",
  };
}

/**
 * A JOSE failure as a 401 that says what is wrong with the token (expired, wrong issuer or audience, bad
 * signature), never quoting it.
 */
export function verificationFailure(error: unknown): UnauthenticatedError {
  if (error instanceof UnauthenticatedError) return error;
  if (error instanceof joseErrors.JWTExpired) {
    const exp =
      typeof error.payload.exp === "number" ? new Date(error.payload.exp * 1000).toISOString() : "?";
    return new UnauthenticatedError(`the token expired at ${exp}`);
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    const claim =
      error.claim === "iss" ? "issuer" : error.claim === "aud" ? "audience" : `claim ${error.claim}`;
    return new UnauthenticatedError(`the token's ${claim} is not accepted (${excerpt(error.reason, 80)})`);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new UnauthenticatedError("the token's signature does not verify");
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return new UnauthenticatedError("the token is signed with a key the identity provider does not publish");
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return new UnauthenticatedError("the token's signing algorithm is not accepted");
  }
  if (error instanceof joseErrors.JWKSTimeout) {
    return new UnauthenticatedError("the identity provider's keys cannot be fetched");
  }
  if (error instanceof joseErrors.JOSEError)
    return new UnauthenticatedError(`the token is malformed (${error.code})`);
  return new UnauthenticatedError(
    `the token cannot be verified (${excerpt(error instanceof Error ? error.message : String(error), 80)})`,
  );
}
