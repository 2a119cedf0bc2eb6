import { runCliJson } from "@racksmith/cli";
import type { EndpointSummary, ManagedHostView } from "@racksmith/server";
import { type Fleet, generateScenario, startFleet } from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { Site } from "./support/site.js";
import { waitFor } from "./support/waitFor.js";

const REQUEST_TIMEOUT_MS = 1_000;
/** Lenovo XCC's default: more than the explorer's 3 failed logins before it backs off. */
const LOCKOUT = { threshold: 5 };

// Acceptance: an unreachable, a slow, a 401 and a malformed-JSON BMC each get their typed error; the rest work.
// What a BMC answers does not depend on the database: the embedded one only.
describe.each(E2E_DATABASES.slice(0, 1))("BMCs that fail in different ways, on $kind", (database) => {
  let fleet: Fleet;
  let site: Site;
  const endpoints = async () =>
    (await site.call<{ endpoints: EndpointSummary[] }>("GET", "/api/v1/site-explorer/endpoints")).endpoints;

  beforeAll(async () => {
    fleet = await startFleet({
      scenario: generateScenario({
        hosts: 12,
        seed: 21,
        anomalies: {
          unreachable: 1,
          slow: { count: 1, latencyMs: 10 * REQUEST_TIMEOUT_MS },
          unauthorized: 1,
          malformedJson: 1,
        },
      }),
      service: { lockout: LOCKOUT },
    });
    site = await Site.create({
      fleet,
      database,
      sitePassword: "Errors-Site-Pw-9!",
      // One run, then a long pause: what the first contact with each BMC gives.
      siteExplorer: {
        intervalMs: 600_000,
        maxIngestionsPerRun: 20,
        bmc: { requestTimeoutMs: REQUEST_TIMEOUT_MS, connectTimeoutMs: 1_000 },
      },
    });
    await site.start();
    await site.register();
    // The next periodic run is 10 minutes away: asking for one BMC's re-exploration runs the explorer over all.
    await reExplore(fleet.bmcs[0]?.address ?? "");
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await fleet?.stop();
  });

  const reExplore = (address: string) =>
    runCliJson(["site-explorer", "re-explore", address, "--server", site.url, "--token", site.token]);
  const endpointAt = async (address: string) =>
    (await endpoints()).find((endpoint) => endpoint.address === address);
  const bmcWith = (kind: string) => {
    const anomaly = fleet.anomalies.find((candidate) => candidate.kind === kind);
    const bmc = fleet.bmc(anomaly?.bmc ?? "");
    if (!bmc?.address) throw new Error(`no BMC shows ${kind}`);
    return bmc;
  };

  it("gives each failing BMC the matching typed error", async () => {
    const failing = {
      unreachable: bmcWith("unreachable").address,
      timeout: bmcWith("slow").address,
      unauthorized: bmcWith("unauthorized").address,
      malformed_response: bmcWith("malformedJson").address,
    };
    const all = await waitFor(
      async () => {
        const listed = await endpoints();
        const done = listed.filter((endpoint) => endpoint.reportVersion > 0 || endpoint.lastError !== null);
        return done.length === fleet.bmcs.length && listed;
      },
      { what: "the first run to reach every BMC", describe: async () => JSON.stringify(await endpoints()) },
    );
    const byAddress = new Map(all.map((endpoint) => [endpoint.address, endpoint]));
    for (const [code, address] of Object.entries(failing)) {
      const endpoint = byAddress.get(address ?? "");
      expect({ address, code: endpoint?.lastError?.code, reportVersion: endpoint?.reportVersion }).toEqual({
        address,
        code,
        reportVersion: 0,
      });
      expect(endpoint?.lastError?.message).toEqual(expect.any(String));
    }
  }, 180_000);

  it("explores every other BMC as if nothing were wrong, and ingests the hosts that depend on none of them", async () => {
    const failingAddresses = new Set(
      ["unreachable", "slow", "unauthorized", "malformedJson"].map((kind) => bmcWith(kind).address),
    );
    const others = (await endpoints()).filter((endpoint) => !failingAddresses.has(endpoint.address));
    expect(others).toHaveLength(fleet.bmcs.length - 4);
    for (const endpoint of others) {
      expect({
        address: endpoint.address,
        lastError: endpoint.lastError,
        explored: endpoint.reportVersion > 0,
      }).toEqual({ address: endpoint.address, lastError: null, explored: true });
    }
    // Hosts whose own BMC or DPU failed wait; every other host is ingested in the same run.
    const affectedHosts = new Set(fleet.anomalies.map((anomaly) => anomaly.host));
    const healthy = fleet.bmcs.filter((bmc) => bmc.kind === "host" && !affectedHosts.has(bmc.id));
    // Verdicts are stored once the run has paired everyone, after the last exploration.
    const verdicts = await waitFor(
      async () => {
        const listed = (
          await site.call<{ managedHosts: ManagedHostView[] }>("GET", "/api/v1/site-explorer/managed-hosts")
        ).managedHosts;
        const decided = healthy.every((host) =>
          listed.some((verdict) => verdict.hostAddress === host.address),
        );
        return decided && listed;
      },
      { what: "the run's verdicts" },
    );
    expect(healthy.length).toBeGreaterThan(0);
    for (const host of healthy) {
      const verdict = verdicts.find((candidate) => candidate.hostAddress === host.address);
      expect({ host: host.id, status: verdict?.status, why: verdict?.reason ?? null }).toEqual({
        host: host.id,
        status: "ingested",
        why: null,
      });
    }
  });

  it("stops logging in to the BMC that refuses its password before the BMC locks the account", async () => {
    const refusing = bmcWith("unauthorized");
    const address = refusing.address ?? "";
    for (let run = 0; run < LOCKOUT.threshold; run++) {
      const before = (await endpointAt(address))?.lastExploredAt;
      await reExplore(address);
      await waitFor(async () => (await endpointAt(address))?.lastExploredAt !== before, {
        what: `re-exploration ${run + 1} of the refusing BMC`,
      });
    }
    expect((await endpointAt(address))?.lastError?.code).toBe("avoid_lockout");
    expect((await refusing.service()).state.lockouts).toEqual([]);
  }, 360_000);
});
