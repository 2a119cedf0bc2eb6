import { runCliJson } from "@racksmith/cli";
import {
  type EndpointSummary,
  type MachineDetail,
  type MachineView,
  type ManagedHostView,
  machineIdFor,
} from "@racksmith/server";
import { type Fleet, generateScenario, startFleet, type VirtualBmc } from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { Site } from "./support/site.js";
import { waitFor } from "./support/waitFor.js";

const SITE_PASSWORD = "Site-Root-Pw-2026!";

// Acceptance: 100 hosts of the four vendors, one BlueField each, 3 wrong serials, 2 NIC-mode DPUs, 2 missing DPUs.
describe.each(E2E_DATABASES)("a 100-host fleet explored by racksmith serve on $kind", (database) => {
  let fleet: Fleet;
  let site: Site;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  const endpoints = async () =>
    (await site.call<{ endpoints: EndpointSummary[] }>("GET", "/api/v1/site-explorer/endpoints")).endpoints;
  const verdicts = async () =>
    (await site.call<{ managedHosts: ManagedHostView[] }>("GET", "/api/v1/site-explorer/managed-hosts"))
      .managedHosts;

  beforeAll(async () => {
    fleet = await startFleet({
      scenario: generateScenario({
        hosts: 100,
        seed: 11,
        anomalies: { wrongSerial: 3, nicModeDpu: 2, missingDpu: 2 },
      }),
    });
    site = await Site.create({
      fleet,
      database,
      sitePassword: SITE_PASSWORD,
      siteExplorer: { intervalMs: 1_000, budget: 250, concurrency: 30, maxIngestionsPerRun: 40 },
    });
    await site.start();
    await site.register();
  }, 360_000);

  afterAll(async () => {
    await site?.close();
    await fleet?.stop();
  });

  const hosts = () => fleet.bmcs.filter((bmc) => bmc.kind === "host");
  const anomalous = (kind: string) =>
    new Set(fleet.anomalies.filter((anomaly) => anomaly.kind === kind).map((anomaly) => anomaly.host));
  const goodHosts = () => {
    const bad = new Set(fleet.anomalies.map((anomaly) => anomaly.host));
    return hosts().filter((host) => !bad.has(host.id));
  };
  // A host is known by the chassis serial its expected machine names (the system serial may differ).
  const hostIdOf = (host: VirtualBmc) => machineIdFor("host", chassisSerialOf(host));
  const chassisSerialOf = (host: VirtualBmc) => host.plan.chassisSerial ?? host.serial;
  const dpuOf = (host: VirtualBmc): VirtualBmc => {
    const dpu = fleet.bmc(host.plan.dpus[0] ?? "");
    if (!dpu) throw new Error(`${host.id} has no DPU`);
    return dpu;
  };

  it("ingests every good host with its DPU as primary, and gives each bad one its reason", async () => {
    expect(hosts()).toHaveLength(100);
    expect(new Set(hosts().map((host) => host.vendor))).toEqual(
      new Set(["dell", "lenovo", "hpe", "supermicro"]),
    );
    expect(goodHosts()).toHaveLength(93);

    const settled = await waitFor(
      async () => {
        const all = await verdicts();
        const ingested = all.filter((verdict) => verdict.status === "ingested");
        return all.length === 100 && ingested.length === 93 && all;
      },
      {
        what: "93 hosts ingested",
        timeoutMs: 540_000,
        describe: async () => JSON.stringify(await verdicts()),
      },
    );
    const byAddress = new Map(settled.map((verdict) => [verdict.hostAddress, verdict]));
    for (const host of goodHosts()) {
      const dpu = dpuOf(host);
      const dpuId = machineIdFor("dpu", dpu.serial);
      expect(byAddress.get(host.address ?? ""), host.id).toMatchObject({
        status: "ingested",
        machineId: hostIdOf(host),
        primaryDpu: dpuId,
        dpus: [
          { address: dpu.address, bmcMac: dpu.mac, serial: dpu.serial, primary: true, machineId: dpuId },
        ],
      });
    }
    const expectedBad = [
      ...[...anomalous("wrongSerial")].map((id) => [id, "rejected", "serial_number_mismatch"]),
      ...[...anomalous("nicModeDpu")].map((id) => [id, "rejected", "dpu_in_nic_mode"]),
      ...[...anomalous("missingDpu")].map((id) => [id, "waiting", "dpu_not_explored"]),
    ];
    expect(expectedBad).toHaveLength(7);
    for (const [id, status, code] of expectedBad) {
      const host = fleet.bmc(id ?? "") as VirtualBmc;
      const verdict = byAddress.get(host.address ?? "");
      expect({ id, status: verdict?.status, code: verdict?.code, machineId: verdict?.machineId }).toEqual({
        id,
        status,
        code,
        machineId: null,
      });
      expect(verdict?.reason).toEqual(expect.any(String));
    }
    const wrongSerial = await endpoints();
    for (const id of anomalous("wrongSerial")) {
      const address = fleet.bmc(id)?.address;
      expect(wrongSerial.find((endpoint) => endpoint.address === address)?.findings).toEqual([
        expect.objectContaining({ code: "SerialNumberMismatch" }),
      ]);
    }
  }, 450_000);

  it("lists each machine once with the shape `racksmith machine list --json` promises", async () => {
    const machines = await cli<MachineView[]>("machine", "list");
    expect(machines).toHaveLength(93 * 2);
    expect(new Set(machines.map((machine) => machine.id)).size).toBe(machines.length);
    const byId = new Map(machines.map((machine) => [machine.id, machine]));
    for (const host of goodHosts()) {
      const dpu = dpuOf(host);
      const hostId = hostIdOf(host);
      const dpuId = machineIdFor("dpu", dpu.serial);
      // The lifecycle takes over at once; without agents in this test, hosts stop in DPU bring-up.
      expect(byId.get(hostId)).toEqual({
        id: hostId,
        kind: "host",
        state: expect.stringMatching(/^(created|dpuDiscovering|dpuInit)$/),
        bmcAddress: host.address,
        bmcMac: host.mac,
        serial: chassisSerialOf(host),
        dpus: [dpuId],
      });
      expect(byId.get(dpuId)).toEqual({
        id: dpuId,
        kind: "dpu",
        state: byId.get(hostId)?.state,
        bmcAddress: dpu.address,
        bmcMac: dpu.mac,
        serial: dpu.serial,
        host: hostId,
      });
    }
    const endpointList = await cli<Array<Record<string, unknown>>>("site-explorer", "endpoints");
    expect(endpointList).toHaveLength(fleet.bmcs.length);
    expect(Object.keys(endpointList[0] ?? {}).sort()).toEqual(
      ["address", "driver", "lastError", "reportVersion", "vendor"].sort(),
    );
    expect(endpointList.filter((endpoint) => endpoint.lastError !== null)).toEqual([]);
  });

  it("never ingests a host twice: not in later runs, not after a restart", async () => {
    const before = await cli<MachineView[]>("machine", "list");
    const versionsNow = Math.min(...(await endpoints()).map((endpoint) => endpoint.reportVersion));
    await site.kill();
    await site.start();
    await waitFor(
      async () =>
        Math.min(...(await endpoints()).map((endpoint) => endpoint.reportVersion)) >= versionsNow + 2,
      { what: "two more exploration runs after the restart", timeoutMs: 360_000 },
    );
    const after = await cli<MachineView[]>("machine", "list");
    // The same machines (their lifecycle states move on, so they are left out of the comparison).
    const identities = (machines: MachineView[]) =>
      machines.map(({ state: _state, ...identity }) => identity);
    expect(identities(after)).toEqual(identities(before));
    const sample = goodHosts().slice(0, 5);
    for (const host of sample) {
      const shown = await cli<MachineDetail>("machine", "show", hostIdOf(host));
      // Created once: a second ingestion would have started a second history at `created`.
      const created = shown.history.filter((entry) => entry.state === "created");
      expect(created.map((entry) => [entry.state, entry.version])).toEqual([["created", 1]]);
    }
  }, 450_000);

  it("never writes a password to its log", () => {
    const log = site.output();
    expect(log).toContain("racksmith listening");
    for (const password of [
      SITE_PASSWORD,
      ...fleet.bmcs.map((bmc) => bmc.plan.factoryCredentials.password),
    ]) {
      expect(log).not.toContain(password);
    }
  });
});
