import { runCliInMemory, runCliJson } from "@racksmith/cli";
import type { HealthReport } from "@racksmith/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

type HealthJson = HealthReport & { overrides: Array<{ source: string; mode: string }> };

// Acceptance (issue 7): a fan past its critical threshold → BmcSensor/SensorCritical within one collection interval,
// blocking allocation until a mark-healthy replace override; a silent DPU agent → HeartbeatTimeout; a maintenance
// override blocks allocation; all in `racksmith health show` and /metrics.
describe("health of a simulated site", () => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url]);
  const allocate = (machine: string) =>
    runCliInMemory(["instance", "allocate", "--machine", machine, "--tenant", "acme", "--server", site.url]);
  const metrics = async () => (await fetch(`${site.url}/metrics`)).text();
  const hostOf = async (bmcMac: string) =>
    (await cli<Array<{ id: string; bmcMac: string }>>("machine", "list")).find((m) => m.bmcMac === bmcMac)
      ?.id ?? "";
  /** The nth host that is not the Lenovo one (whose fan test releases an instance and cleans up). */
  const otherHost = async (index: number) => {
    const lenovo = await hostOf(
      site.fleet.bmcs.find((b) => b.vendor === "lenovo" && b.kind === "host")?.mac ?? "",
    );
    return (await site.hostStates()).filter((s) => s.objectId !== lenovo)[index]?.objectId ?? "";
  };
  const instanceOn = async (hostId: string) =>
    (await cli<Array<{ id: string; machineId: string }>>("instance", "list", "--machine", hostId))[0]?.id ??
    "";

  beforeAll(async () => {
    site = await simulatedSite(E2E_DATABASES[0] ?? { kind: "pglite" }, {
      hosts: 3,
      seed: 4,
      sections: {
        health: { dpuHeartbeatTimeoutMs: 2_000, sensorAlerts: "enabled" },
        monitor: { sensorIntervalMs: 3_000, jitterMs: 500 },
      },
    });
    await waitFor(
      async () => {
        const all = await site.hostStates();
        return all.length === 3 && all.every((s) => s.state.state === "ready");
      },
      { what: "3 Ready hosts", timeoutMs: 120_000 },
    );
  }, 180_000);
  afterAll(async () => {
    await site?.close();
  });

  it("alerts on a fan past its critical threshold within one interval, blocking allocation until mark-healthy", async () => {
    const lenovo = site.fleet.bmcs.find((b) => b.vendor === "lenovo" && b.kind === "host");
    if (!lenovo) throw new Error("the scenario has no Lenovo host");
    const hostId = await hostOf(lenovo.mac);
    // The fan slows below its critical threshold and the BMC says so.
    await (await lenovo.service()).merge("/redfish/v1/Chassis/1/Sensors/80L0", {
      Reading: 300,
      Thresholds: { LowerCritical: { Reading: 1000 }, LowerCaution: { Reading: 2000 } },
      Status: { State: "Enabled", Health: "Critical" },
    });
    const changed = Date.now();
    const health = await waitFor(
      async () => {
        const report = await cli<HealthJson>("health", "show", hostId);
        return report.alerts.some((a) => a.id === "BmcSensor" && a.target === "80L0") && report;
      },
      { what: "a BmcSensor alert for fan 80L0", timeoutMs: 30_000, everyMs: 200 },
    );
    // Within one collection interval (3 s plus at most 0.5 s of jitter), plus the pass's own time and the
    // polling here, which a loaded machine stretches.
    expect(Date.now() - changed).toBeLessThan(3_000 + 500 + 4_000);
    const alert = health.alerts.find((a) => a.id === "BmcSensor" && a.target === "80L0");
    expect(alert?.classifications).toEqual(
      expect.arrayContaining(["SensorCritical", "Hardware", "PreventAllocations"]),
    );
    expect(await metrics()).toMatch(/racksmith_bmc_sensor_reading\{[^}]*sensor="80L0"[^}]*\} 300/);

    const refused = await allocate(hostId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("BmcSensor");
    await cli(
      "health",
      "override",
      "add",
      hostId,
      "--source",
      "ops",
      "--template",
      "mark-healthy",
      "--replace",
    );
    expect((await cli<HealthJson>("health", "show", hostId)).alerts).toEqual([]);
    const allowed = await allocate(hostId);
    expect(allowed.code, allowed.stderr).toBe(0);
    await cli("instance", "release", await instanceOn(hostId));
    await cli("health", "override", "remove", hostId, "--source", "ops");
    const restored = await cli<HealthJson>("health", "show", hostId);
    expect(restored.alerts.map((a) => a.id)).toContain("BmcSensor");
  }, 60_000);

  it("raises HeartbeatTimeout for a DPU agent that stops reporting, which blocks allocation", async () => {
    const hostId = await otherHost(0);
    const { bmcMac } = await cli<{ bmcMac: string }>("machine", "show", hostId);
    const dpuBmc = site.fleet.bmc(site.fleet.bmc(bmcMac)?.plan.dpus[0] ?? "");
    expect(dpuBmc?.kind).toBe("dpu");
    site.agents.silenceDpuAgent(dpuBmc?.id ?? "");

    const health = await waitFor(
      async () => {
        const report = await cli<HealthJson>("health", "show", hostId);
        return report.alerts.some((a) => a.id === "HeartbeatTimeout") && report;
      },
      { what: "HeartbeatTimeout", timeoutMs: 30_000 },
    );
    expect(health.alerts.find((a) => a.id === "HeartbeatTimeout")?.classifications).toContain(
      "PreventAllocations",
    );
    const refused = await allocate(hostId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("HeartbeatTimeout");
    expect(await metrics()).toMatch(
      new RegExp(`racksmith_health_alerts\\{[^}]*machine_id="${hostId}"[^}]*probe_id="HeartbeatTimeout"`),
    );
    site.agents.silenceDpuAgent(dpuBmc?.id ?? "", false);
  }, 60_000);

  it("blocks allocation with a maintenance merge override, shown with its source, and lets go when removed", async () => {
    const hostId = await otherHost(1);
    await cli("health", "override", "add", hostId, "--source", "ops", "--template", "maintenance");
    const health = await cli<HealthJson>("health", "show", hostId);
    expect(health.overrides).toEqual([{ source: "ops", mode: "merge" }]);
    expect(health.alerts.map((a) => a.id)).toContain("Maintenance");
    const refused = await allocate(hostId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Maintenance");
    expect(await metrics()).toMatch(
      new RegExp(`racksmith_health_alerts\\{[^}]*machine_id="${hostId}"[^}]*probe_id="Maintenance"`),
    );

    await cli("health", "override", "remove", hostId, "--source", "ops");
    const allowed = await allocate(hostId);
    expect(allowed.code, allowed.stderr).toBe(0);
  }, 60_000);
});
