import { runCliInMemory } from "@racksmith/cli";
import { startTestIdentityProvider, type TestIdentityProvider } from "@racksmith/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { restJson } from "./support/rest.js";
import { simulatedSite } from "./support/simulatedSite.js";

const ISSUER = "https://idp.example.test/realms/site";
const AUDIENCE = "racksmith-api";

interface ApiError {
  error: { code: string; message: string };
}

// Acceptance (issue 17, 4): tokens from a test OIDC provider (a JWKS served by the test) are accepted with
// their mapped roles; a wrong issuer, audience, signature or expiry is refused with a clear 401 body; a revoked
// service-issued token is refused — against racksmith serve on each database.
describe.each(E2E_DATABASES)("authentication ($kind)", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  let idp: TestIdentityProvider;
  const as = (token: string) => ({ url: site.url, token });

  beforeAll(async () => {
    idp = await startTestIdentityProvider({ issuer: ISSUER, audience: AUDIENCE });
    site = await simulatedSite(database, {
      hosts: 1,
      seed: 4,
      sections: {
        auth: {
          oidc: {
            issuer: ISSUER,
            audience: AUDIENCE,
            jwksUrl: idp.jwksUrl,
            roleClaim: "groups",
            roles: { "site-operators": "operator", tenants: "tenant" },
            tenantClaim: "org",
          },
        },
      },
    });
  }, 300_000);
  afterAll(async () => {
    await site?.close();
    await idp?.stop();
  });

  it("accepts the provider's tokens with their mapped roles, through REST and the CLI", async () => {
    const operator = await idp.sign({ sub: "alice", groups: ["site-operators"] });
    const whoami = await restJson<Record<string, unknown>>(as(operator), "GET", "/api/v1/auth/whoami");
    expect(whoami.body).toEqual({ subject: "alice", role: "operator", proof: "oidc" });
    const listed = await restJson(as(operator), "GET", "/api/v1/expected-machines");
    expect(listed.status).toBe(200);
    const tenant = await idp.sign({ sub: "bob", groups: "tenants", org: "acme" });
    const refused = await restJson<ApiError>(as(tenant), "GET", "/api/v1/expected-machines");
    expect(refused.status).toBe(403);
    const cli = await runCliInMemory(["token", "whoami", "--json", "--server", site.url, "--token", tenant]);
    expect(JSON.parse(cli.stdout)).toEqual({ subject: "bob", role: "tenant", tenant: "acme", proof: "oidc" });
  });

  it.each([
    ["a wrong issuer", { issuer: "https://elsewhere.example.test" }, "is not trusted"],
    ["a wrong audience", { audience: "another-api" }, "audience is not accepted"],
    ["a forged signature", { forged: true }, "the token's signature does not verify"],
    ["an expired token", { expiresAt: Math.floor(Date.now() / 1000) - 600 }, "the token expired at"],
  ])("refuses %s with a 401 saying so", async (_, options, message) => {
    const token = await idp.sign({ sub: "mallory", groups: ["site-operators"] }, options);
    const answer = await restJson<ApiError>(as(token), "GET", "/api/v1/machines");
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("unauthenticated");
    expect(answer.body.error.message).toContain(message);
    expect(JSON.stringify(answer.body)).not.toContain(token);
  });

  it("refuses a revoked service-issued token at once", async () => {
    const issued = await restJson<{ token: string; record: { id: string } }>(
      as(site.token),
      "POST",
      "/api/v1/auth/tokens",
      { role: "viewer", subject: "dashboard" },
    );
    expect(issued.status).toBe(201);
    expect((await restJson(as(issued.body.token), "GET", "/api/v1/machines")).status).toBe(200);
    const revoked = await runCliInMemory([
      "token",
      "revoke",
      issued.body.record.id,
      "--server",
      site.url,
      "--token",
      site.token,
    ]);
    expect(revoked.code).toBe(0);
    const refused = await restJson<ApiError>(as(issued.body.token), "GET", "/api/v1/machines");
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain(`token ${issued.body.record.id} was revoked at`);
  });
});
