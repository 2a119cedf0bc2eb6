import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runCliJson } from "@racksmith/cli";
import type { InstanceView } from "@racksmith/server";
import {
  callAgentListener,
  type MachineCertificate,
  machineCertificate,
  untrustedMachineCertificate,
} from "@racksmith/server/testing";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { restJson } from "./support/rest.js";
import { readyHosts, simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 2;
/** Short enough that every agent renews within seconds (at two thirds of it), long enough to keep up. */
const CERTIFICATE_TTL_MS = 9_000;

interface AuditRow {
  actor: string;
  role: string;
  operation: string;
  result: string;
}

// Acceptance (issue 17, 3 and 5): a simulated site reaches Ready with its agents on mTLS, each with its machine's
// certificate, and the certificates rotate before they expire without any host leaving its state; a certificate
// of machine X calling about machine Y is refused, an expired or unknown-CA one cannot connect. An instance's
// host obtains a JWT-SVID over its certificate that verifies against its tenant's published JWKS and names the
// machine and the tenant.
describe.each(E2E_DATABASES)("agents on mTLS ($kind)", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  let hosts: string[] = [];

  beforeAll(async () => {
    site = await simulatedSite(database, {
      hosts: HOSTS,
      seed: 33,
      sections: { auth: { agentCertificateTtlMs: CERTIFICATE_TTL_MS } },
    });
    hosts = await readyHosts(site, HOSTS);
  }, 540_000);
  afterAll(async () => {
    await site?.close();
  });

  it("reaches Ready with every agent holding its machine's certificate and reporting over mTLS", async () => {
    // Every host and DPU agent asked for and got a certificate at discovery.
    expect(site.agents.stats.certificatesIssued).toBeGreaterThanOrEqual(HOSTS * 2);
    const audit = await cli<AuditRow[]>("audit", "list", "--limit", "10000");
    for (const host of hosts) {
      const reports = audit.filter((row) => row.actor === `machine:${host}`);
      expect(reports.length, `reports of ${host}`).toBeGreaterThan(0);
      expect(new Set(reports.map((row) => row.role))).toEqual(new Set(["agent"]));
      expect(reports.map((row) => row.operation)).toContain("racksmith.v1.HostAgent/DiscoveryCompleted");
    }
  });

  it("refuses a certificate of machine X about machine Y, an expired one and one of another CA", async () => {
    const dataDir = dirname(site.service.adminTokenFile ?? "");
    const ca = {
      certFile: join(dataDir, "auth", "agent-ca.pem"),
      keyFile: join(dataDir, "auth", "agent-ca-key.pem"),
    };
    const caPem = await readFile(ca.certFile, "utf8");
    const address = `127.0.0.1:${site.service.agentGrpc.port}`;
    const [x, y] = hosts as [string, string];
    const control = (certificate: MachineCertificate, machineId: string) =>
      callAgentListener(address, caPem, certificate, "racksmith.v1.HostAgent/AgentControl", { machineId });
    const own = await machineCertificate(ca, x);
    expect((await control(own, x)).codeName).toBe("OK");
    const about = await control(own, y);
    expect(about).toMatchObject({
      codeName: "PERMISSION_DENIED",
      details: `the agent of machine ${x} may not call racksmith.v1.HostAgent/AgentControl about machine ${y}`,
    });
    const hour = 3_600_000;
    const expired = await machineCertificate(ca, x, {
      notBefore: new Date(Date.now() - 2 * hour),
      notAfter: new Date(Date.now() - hour),
    });
    expect((await control(expired, x)).codeName).toBe("UNAVAILABLE");
    expect((await control(await untrustedMachineCertificate(x), x)).codeName).toBe("UNAVAILABLE");
  });

  it("rotates the certificates before they expire, every host staying Ready", async () => {
    const before = new Map((await site.hostStates()).map((state) => [state.objectId, state.version]));
    const renewalsBefore = site.agents.stats.renewals;
    // Each machine renews at two thirds of its certificate's life; wait past one whole life.
    await waitFor(async () => site.agents.stats.renewals >= renewalsBefore + HOSTS * 2, {
      what: "every agent's certificate renewed",
      timeoutMs: 120_000,
      everyMs: 250,
    });
    const audit = await cli<AuditRow[]>("audit", "list", "--limit", "10000");
    const renewals = audit.filter((row) => row.operation === "racksmith.v1.HostAgent/RenewAgentCertificate");
    expect(renewals.every((row) => row.result === "OK" && row.actor.startsWith("machine:"))).toBe(true);
    const after = await site.hostStates();
    for (const state of after) {
      expect(state.state.state, state.objectId).toBe("ready");
      expect(state.version, state.objectId).toBe(before.get(state.objectId));
    }
    // The agents kept calling over mTLS with their new certificates: no call failed for want of one.
    expect(site.agents.stats.errors.UNAUTHENTICATED ?? 0).toBe(0);
    expect(site.agents.stats.errors.PERMISSION_DENIED ?? 0).toBe(0);
  });

  it("gives an instance's host a JWT-SVID naming it and its tenant, verified by the tenant's JWKS", async () => {
    const [host, idle] = hosts as [string, string];
    const allocated = await restJson<InstanceView>(site, "POST", "/api/v1/instances", {
      machineId: host,
      tenantOrg: "acme",
      config: { network: { interfaces: [{ function: "pf0", network: "tenant-a" }] } },
    });
    expect(allocated.status).toBe(201);
    const bmcOf = async (id: string) =>
      (
        await site.service.database.db
          .selectFrom("machines")
          .select("bmc_mac")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).bmc_mac;
    const audience = "https://storage.acme.example";
    const identity = await site.agents.workloadIdentity(await bmcOf(host), audience);

    const issuer = `${site.url}/api/v1/tenants/acme`;
    const discovery = await restJson<{ issuer: string; jwks_uri: string }>(
      site,
      "GET",
      "/api/v1/tenants/acme/.well-known/openid-configuration",
    );
    expect(discovery.body).toMatchObject({ issuer, jwks_uri: `${issuer}/jwks.json` });
    const jwks = (await (await fetch(discovery.body.jwks_uri)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(identity.token, createLocalJWKSet(jwks), { issuer, audience });
    expect(payload).toMatchObject({
      sub: `spiffe://racksmith/tenant/acme/machine/${host}`,
      racksmith_machine: host,
      racksmith_tenant: "acme",
      racksmith_instance: allocated.body.id,
    });
    expect(identity.spiffeId).toBe(payload.sub);
    // Another tenant's keys do not verify it.
    const others = (await (
      await fetch(`${site.url}/api/v1/tenants/globex/jwks.json`)
    ).json()) as JSONWebKeySet;
    await expect(jwtVerify(identity.token, createLocalJWKSet(others), { audience })).rejects.toThrow();
    // A host without an instance has no tenant to name.
    await expect(site.agents.workloadIdentity(await bmcOf(idle), audience)).rejects.toThrow(
      `machine ${idle} runs no tenant instance`,
    );
  });
});
