import { runCliJson } from "@racksmith/cli";
import type { EndpointSummary } from "@racksmith/server";
import { type Fleet, generateScenario, startFleet, type VirtualBmc } from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { Site } from "./support/site.js";
import { waitFor } from "./support/waitFor.js";

const SITE_PASSWORD = "Rotated-Site-Pw-77!";
/** Like a BMC that locks an account after 3 bad logins in a row (iDRAC's default count). */
const LOCKOUT = { threshold: 3, durationMs: 600_000 };
/**
 * Every password change takes this long at the BMC while the kills happen, so a kill lands while changes are in
 * flight even when a busy machine stalls this test for seconds between seeing a change sent and killing.
 */
const PASSWORD_CHANGE_MS = 10_000;
const KILLS = 2;

interface StoredKey {
  kind: string;
  mac: string | null;
}

// Acceptance: factory → site password on every virtual BMC; killing the service mid-rotation never locks one out.
describe.each(E2E_DATABASES)("rotation across SIGKILLs of racksmith serve on $kind", (database) => {
  let fleet: Fleet;
  let site: Site;
  const storedKeys = () =>
    runCliJson<StoredKey[]>(["credentials", "list", "--config", site.configFile], site.dir);
  const passwordOf = async (bmc: VirtualBmc) =>
    (await bmc.service()).state.accounts.get(bmc.credentials.username);
  const endpoints = async () =>
    (await site.call<{ endpoints: EndpointSummary[] }>("GET", "/api/v1/site-explorer/endpoints")).endpoints;
  const patches = () => fleet.stats.byMethod.PATCH ?? 0;

  beforeAll(async () => {
    fleet = await startFleet({
      scenario: generateScenario({ hosts: 24, seed: 5, anomalies: { passwordChangeRequired: 2 } }),
      service: { lockout: LOCKOUT },
    });
    for (const bmc of fleet.bmcs) {
      bmc.addFault({
        path: "/redfish/v1/AccountService/Accounts/*",
        method: "PATCH",
        latencyMs: PASSWORD_CHANGE_MS,
      });
    }
    site = await Site.create({
      fleet,
      database,
      sitePassword: SITE_PASSWORD,
      siteExplorer: { intervalMs: 500, budget: 100, concurrency: 30 },
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await fleet?.stop();
  });

  it("starts with each BMC on its factory password", async () => {
    for (const bmc of fleet.bmcs) expect(await passwordOf(bmc)).toBe(bmc.plan.factoryCredentials.password);
  });

  it(`survives ${KILLS} SIGKILLs while password changes are in flight`, async () => {
    const interrupted: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const before = patches();
      await site.start();
      if (kill === 0) await site.register();
      await waitFor(async () => patches() >= before + 4, { what: "password changes sent to the BMCs" });
      await site.kill();
      // What the BMCs were sent before the kill still lands: some change after the service is gone.
      await waitFor(async () => fleet.stats.inFlight === 0, { what: "the BMCs to finish" });
      const intents = (await storedKeys()).filter((key) => key.kind === "bmc-rotation").map((key) => key.mac);
      for (const mac of intents) {
        const bmc = fleet.bmc(mac ?? "") as VirtualBmc;
        if ((await passwordOf(bmc)) === SITE_PASSWORD) interrupted.push(bmc.id);
      }
    }
    // The hard case happened: a BMC took the new password but the service died before it learned so.
    expect(interrupted.length).toBeGreaterThan(0);

    // The rest of the rotation need not wait on slow BMCs.
    for (const bmc of fleet.bmcs) bmc.clearFaults();
    await site.start();
    const settled = await waitFor(
      async () => {
        const all = await endpoints();
        return (
          all.length === fleet.bmcs.length &&
          all.every((endpoint) => endpoint.reportVersion >= 1 && endpoint.lastError === null) &&
          all
        );
      },
      {
        what: "every BMC explored after the restart",
        describe: async () => JSON.stringify(await endpoints()),
      },
    );
    expect(settled).toHaveLength(48);
  }, 900_000);

  it("leaves every BMC on the site password, unlocked, with its credentials stored and no intent pending", async () => {
    for (const bmc of fleet.bmcs) {
      const service = await bmc.service();
      expect({ bmc: bmc.id, password: await passwordOf(bmc), lockouts: service.state.lockouts }).toEqual({
        bmc: bmc.id,
        password: SITE_PASSWORD,
        lockouts: [],
      });
      expect(service.state.passwordChangeRequired.size).toBe(0);
    }
    const keys = await storedKeys();
    expect(keys.filter((key) => key.kind === "bmc-rotation")).toEqual([]);
    expect(
      keys
        .filter((key) => key.kind === "bmc")
        .map((key) => key.mac)
        .sort(),
    ).toEqual(fleet.bmcs.map((bmc) => bmc.mac).sort());
  });

  it("audits every mutation of the run with its actor (issue 17, acceptance 6)", async () => {
    const entries = await runCliJson<
      Array<{ actor: string; role: string; operation: string; result: string }>
    >(["audit", "list", "--limit", "10000", "--server", site.url, "--token", site.token]);
    const byOperation = (operation: string) => entries.filter((entry) => entry.operation === operation);
    expect(byOperation("POST /api/v1/expected-machines/batch")).toEqual([
      expect.objectContaining({ actor: "bootstrap-admin", role: "admin", result: "200" }),
    ]);
    const discoveries = byOperation("POST /api/v1/dhcp/discover");
    expect(discoveries).toHaveLength(fleet.discoveries.length);
    expect(new Set(discoveries.map((entry) => `${entry.actor} ${entry.result}`))).toEqual(
      new Set(["bootstrap-admin 200"]),
    );
  });

  it("never writes a password or a token to its log, its audit rows or its error bodies", async () => {
    const issued = await site.call<{ token: string }>("POST", "/api/v1/auth/tokens", {
      role: "viewer",
      subject: "auditor",
    });
    // Refused calls whose bodies could echo what they were sent.
    const errorBodies = [
      await fetch(`${site.url}/api/v1/machines`, { headers: { authorization: `Bearer ${issued.token}x` } }),
      await fetch(`${site.url}/api/v1/expected-machines`, {
        method: "POST",
        headers: { authorization: `Bearer ${issued.token}`, "content-type": "application/json" },
        body: JSON.stringify({ bmcMac: "aa:bb", factoryPassword: SITE_PASSWORD }),
      }),
      await fetch(`${site.url}/api/v1/expected-machines`, {
        method: "POST",
        headers: { authorization: `Bearer ${site.token}`, "content-type": "application/json" },
        body: JSON.stringify({ bmcMac: "not a mac", factoryPassword: SITE_PASSWORD }),
      }),
    ];
    const bodies = await Promise.all(errorBodies.map((response) => response.text()));
    expect(errorBodies.map((response) => response.status)).toEqual([401, 403, 400]);
    const audit = JSON.stringify(await site.call("GET", "/api/v1/audit?limit=10000"));
    const log = site.output();
    for (const secret of [
      SITE_PASSWORD,
      ...fleet.bmcs.map((bmc) => bmc.plan.factoryCredentials.password),
      site.token,
      issued.token,
    ]) {
      expect(log).not.toContain(secret);
      expect(audit).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
