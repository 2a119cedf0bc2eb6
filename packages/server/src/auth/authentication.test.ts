import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiErrorBody } from "../api/index.js";
import {
  type ServiceHarness,
  startServiceHarness,
  startTestIdentityProvider,
  type TestIdentityProvider,
} from "../testing/index.js";

const ISSUER = "https://idp.example.test/realms/site";
const AUDIENCE = "racksmith-api";

/*
 * Issue 17, acceptance 4: tokens of an OIDC provider (a JWKS served by the test) are accepted with their
 * mapped roles; a wrong issuer, audience, signature or expiry is refused with a clear 401 body; a revoked
 * service-issued token is refused.
 */
describe("authentication", () => {
  let api: ServiceHarness;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    idp = await startTestIdentityProvider({ issuer: ISSUER, audience: AUDIENCE });
    api = await startServiceHarness({
      config: {
        auth: {
          oidc: {
            issuer: ISSUER,
            audience: AUDIENCE,
            jwksUrl: idp.jwksUrl,
            roleClaim: "groups",
            roles: { "site-operators": "operator", "site-viewers": "viewer", tenants: "tenant" },
            tenantClaim: "org",
          },
        },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await idp?.stop();
  });

  const whoami = (token: string) =>
    api.request<Record<string, unknown> & ApiErrorBody>("GET", "/api/v1/auth/whoami", undefined, {
      authorization: `Bearer ${token}`,
    });

  it("accepts the provider's tokens with the roles its claims map to", async () => {
    const operator = await whoami(await idp.sign({ sub: "alice", groups: ["staff", "site-operators"] }));
    expect(operator.status).toBe(200);
    expect(operator.json).toEqual({ subject: "alice", role: "operator", proof: "oidc" });
    const tenant = await whoami(await idp.sign({ sub: "bob", groups: "tenants", org: "org-b" }));
    expect(tenant.json).toEqual({ subject: "bob", role: "tenant", tenant: "org-b", proof: "oidc" });
    // A viewer's token reads, and is refused a change.
    const viewer = `Bearer ${await idp.sign({ sub: "carol", groups: ["site-viewers"] })}`;
    expect((await api.request("GET", "/api/v1/machines", undefined, { authorization: viewer })).status).toBe(
      200,
    );
    const change = await api.request<ApiErrorBody>("POST", "/api/v1/skus", {}, { authorization: viewer });
    expect(change.status).toBe(403);
    expect(change.json.error).toMatchObject({
      code: "permission_denied",
      message: "role viewer may not call POST /api/v1/skus (allowed: admin, operator)",
    });
  });

  it.each([
    [
      "a wrong issuer",
      { issuer: "https://other.example.test" },
      'issuer "https://other.example.test" is not trusted',
    ],
    ["a wrong audience", { audience: "someone-else" }, "audience is not accepted"],
    ["an expired token", { expiresAt: Math.floor(Date.now() / 1000) - 3600 }, "the token expired at"],
  ])("refuses %s with a 401 saying so", async (_, options, message) => {
    const answer = await whoami(await idp.sign({ sub: "mallory", groups: ["site-operators"] }, options));
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("unauthenticated");
    expect(answer.json.error.message).toContain(message);
  });

  it("refuses a token signed with another key under the provider's key id", async () => {
    const answer = await whoami(
      await idp.sign({ sub: "mallory", groups: ["site-operators"] }, { forged: true }),
    );
    expect(answer.status).toBe(401);
    expect(answer.json.error.message).toBe("the token's signature does not verify");
  });

  it("refuses a token whose claims map to no role, and a malformed one, never quoting them", async () => {
    const unmapped = await idp.sign({ sub: "dave", groups: ["nobody"] });
    const answer = await whoami(unmapped);
    expect(answer.status).toBe(401);
    expect(answer.json.error.message).toBe(
      "the token's groups claim maps to no Racksmith role (auth.oidc.roles)",
    );
    const garbage = await whoami("not-a-jwt");
    expect(garbage.json.error.message).toBe("the bearer token is not a JWT");
    const basic = await api.request<ApiErrorBody>("GET", "/api/v1/machines", undefined, {
      authorization: "Basic cm9vdDpjYWx2aW4=",
    });
    expect(basic.status).toBe(401);
    expect(basic.json.error.message).toBe("the authorization header must be: Bearer <token>");
    expect(JSON.stringify(answer.json)).not.toContain(unmapped);
  });

  it.each([
    ["an over-long token", `Bearer ${"a".repeat(9000)}`, "the bearer token is over 8192 characters"],
    [
      "an unsigned token of another issuer",
      `Bearer ${unsignedToken()}.`,
      'issuer "racksmith-other" is not trusted',
    ],
    ["two tokens", "Bearer a.b.c d.e.f", "the authorization header must be: Bearer <token>"],
    ["a bare scheme", "Bearer", "the authorization header must be: Bearer <token>"],
  ])("answers %s 401 naming what is wrong, never 5xx", async (_, authorization, message) => {
    const answer = await api.request<ApiErrorBody>("GET", "/api/v1/machines", undefined, { authorization });
    expect(answer.status).toBe(401);
    expect(answer.json.error.message).toContain(message);
  });

  it("refuses a token request whose issuer is the service's but whose algorithm is none", async () => {
    const token = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(
      JSON.stringify({ iss: "racksmith", aud: "racksmith", sub: "eve", racksmith_role: "admin", jti: "x" }),
    ).toString("base64url")}.`;
    const answer = await whoami(token);
    expect(answer.status).toBe(401);
    expect(answer.json.error.message).toMatch(/signing algorithm is not accepted|malformed/);
  });

  it("refuses a revoked service token at once, and an expired one", async () => {
    const issued = await api.request<{ token: string; record: { id: string } }>(
      "POST",
      "/api/v1/auth/tokens",
      {
        role: "operator",
        subject: "ci-pipeline",
      },
    );
    expect(issued.status).toBe(201);
    expect((await whoami(issued.json.token)).json).toMatchObject({
      subject: "ci-pipeline",
      role: "operator",
    });
    const revoked = await api.request<{ revokedAt: string }>(
      "POST",
      `/api/v1/auth/tokens/${issued.json.record.id}/revoke`,
    );
    expect(revoked.status).toBe(200);
    const refused = await whoami(issued.json.token);
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toBe(
      `token ${issued.json.record.id} was revoked at ${revoked.json.revokedAt}`,
    );

    const listed = await api.request<{ tokens: Array<Record<string, unknown>> }>(
      "GET",
      "/api/v1/auth/tokens",
    );
    expect(listed.json.tokens.find((token) => token.id === issued.json.record.id)).toMatchObject({
      subject: "ci-pipeline",
      revokedAt: revoked.json.revokedAt,
    });
    expect(JSON.stringify(listed.json)).not.toContain(issued.json.token);

    const past = await api.request<ApiErrorBody>("POST", "/api/v1/auth/tokens", {
      role: "viewer",
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.json.error.message).toBe("expiresAt must be in the future");
  });

  it.each([
    [{ role: "tenant" }, "tenant is required for the tenant role"],
    [{ role: "agent" }, "machine is required for the agent role"],
    [{ role: "viewer", tenant: "org-a" }, "tenant is only for the tenant role"],
    [{ role: "root" }, "body.role"],
  ])("refuses the token request %j, naming what is wrong", async (body, message) => {
    const answer = await api.request<ApiErrorBody>("POST", "/api/v1/auth/tokens", body);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain(message);
  });
});

/** A JWT with no signature claiming a foreign issuer. */
function unsignedToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none" })}.${part({ iss: "racksmith-other", sub: "eve" })}`;
}
