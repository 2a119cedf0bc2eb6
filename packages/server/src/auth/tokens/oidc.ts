import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { type Caller, excerpt, ROLES, type Role } from "../../api/index.js";
import { DEFAULT_ROLE_CLAIM, DEFAULT_TENANT_CLAIM, type OidcConfig } from "../config.js";
import { UnauthenticatedError } from "../errors.js";
import { verificationFailure } from "./serviceTokens.js";

/** Asymmetric algorithms only: a shared-secret (HS*) token from an IdP could be forged by anyone holding it. */
const OIDC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** The role a claim's values map to (the first that maps), undefined when none does. */
export function mappedRole(
  value: unknown,
  roles: Readonly<Record<string, Role>> | undefined,
): Role | undefined {
  const values = Array.isArray(value) ? value : [value];
  for (const entry of values) {
    if (typeof entry !== "string") continue;
    if (roles) {
      if (Object.hasOwn(roles, entry)) return roles[entry];
    } else if ((ROLES as readonly string[]).includes(entry)) {
      return entry as Role;
    }
  }
  return undefined;
}

/**
 * Tokens of an external OpenID Connect provider: verified against its JWKS (fetched and cached by jose,
 * refetched when a token names an unknown key), its issuer and audience; claims mapped to a role by config.
 */
export class OidcTokens {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly config: OidcConfig) {
    this.keys = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5_000 });
  }

  get issuer(): string {
    return this.config.issuer;
  }

  async verify(token: string): Promise<{ caller: Caller; expiresAt: Date | null }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: OIDC_ALGORITHMS,
        requiredClaims: ["exp"],
      }));
    } catch (error) {
      throw verificationFailure(error);
    }
    const roleClaim = this.config.roleClaim ?? DEFAULT_ROLE_CLAIM;
    const role = mappedRole(payload[roleClaim], this.config.roles);
    if (!role) {
      throw new UnauthenticatedError(
        `the token's ${roleClaim} claim maps to no Racksmith role (auth.oidc.roles)`,
      );
    }
    const subjectClaim = this.config.subjectClaim ?? "sub";
    const subject = payload[subjectClaim];
    if (typeof subject !== "string" || subject === "") {
      throw new UnauthenticatedError(`the token has no ${subjectClaim} claim naming the caller`);
    }
    const caller: Caller = { subject: excerpt(subject, 200), role, proof: "oidc" };
    if (role === "tenant") {
      const tenantClaim = this.config.tenantClaim ?? DEFAULT_TENANT_CLAIM;
      const tenant = payload[tenantClaim];
      if (typeof tenant !== "string" || tenant === "") {
        throw new UnauthenticatedError(`a tenant token needs its org in the ${tenantClaim} claim`);
      }
      caller.tenant = tenant;
    }
    if (role === "agent") {
      throw new UnauthenticatedError(
        "agents authenticate with their machine's certificate or a service token, not an identity provider's token",
      );
    }
    return { caller, expiresAt: typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null };
  }
}
