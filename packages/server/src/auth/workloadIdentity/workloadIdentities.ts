import { SignJWT } from "jose";
import type { TenantKeys } from "./tenantKeys.js";

/** Where a workload identity's SPIFFE ids live. */
export const TRUST_DOMAIN = "racksmith";

export interface WorkloadIdentityRequest {
  machineId: string;
  tenantOrg: string;
  instanceId: string;
  audience: string;
}

/**
 * JWT-SVIDs for tenants' workloads (NICo's machine identity): short-lived JWTs naming the machine and the
 * tenant, signed with the tenant's key, whose JWKS and OIDC discovery document are public, per tenant.
 */
export class WorkloadIdentities {
  private base = "";

  constructor(
    private readonly keys: TenantKeys,
    private readonly ttlMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The service's public base URL (`auth.publicUrl`, else the REST listener as bound). */
  announce(baseUrl: string): void {
    this.base = baseUrl.replace(/\/+$/, "");
  }

  /** The issuer of a tenant's identities; its discovery document is at `<issuer>/.well-known/openid-configuration`. */
  issuerOf(tenantOrg: string): string {
    return `${this.base}/api/v1/tenants/${encodeURIComponent(tenantOrg)}`;
  }

  async issue(
    request: WorkloadIdentityRequest,
  ): Promise<{ token: string; expiresAt: Date; spiffeId: string }> {
    const key = await this.keys.keyOf(request.tenantOrg);
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    const spiffeId = `spiffe://${TRUST_DOMAIN}/tenant/${encodeURIComponent(request.tenantOrg)}/machine/${encodeURIComponent(request.machineId)}`;
    const token = await new SignJWT({
      racksmith_machine: request.machineId,
      racksmith_tenant: request.tenantOrg,
      racksmith_instance: request.instanceId,
    })
      .setProtectedHeader({ alg: "EdDSA", kid: key.publicJwk.kid, typ: "JWT" })
      .setIssuer(this.issuerOf(request.tenantOrg))
      .setSubject(spiffeId)
      .setAudience(request.audience)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key.privateKey);
    return { token, expiresAt, spiffeId };
  }

  async jwks(tenantOrg: string): Promise<{ keys: Array<Record<string, string>> }> {
    return { keys: [(await this.keys.keyOf(tenantOrg)).publicJwk] };
  }

  discovery(tenantOrg: string): Record<string, unknown> {
    const issuer = this.issuerOf(tenantOrg);
    return {
      issuer,
      jwks_uri: `${issuer}/jwks.json`,
      id_token_signing_alg_values_supported: ["EdDSA"],
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
    };
  }
}
