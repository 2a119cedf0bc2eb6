import { runCliInMemory, runCliJson } from "@racksmith/cli";
import type { HealthReport } from "@racksmith/core/health";
import type { VirtualBmc } from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

type HealthJson = HealthReport & { overrides: Array<{ source: string; mode: string }> };

/** A GET of the Sensors collection of chassis 1 (not of one sensor, not a further page). */
const SENSORS_READ = /\/redfish\/v1\/Chassis\/1\/Sensors\/?(\?(?!.*\$skip)|$)/;

/**
 * Counts the monitor's reads of a BMC's Sensors collection — one per sensor collection, so one per monitor
 * pass — and can hold the n-th read until the test has looked at what the earlier passes left. Passes never
 * overlap: when a pass reads the sensors, the previous pass has recorded everything it collected.
 */
function watchSensorReads(bmc: VirtualBmc) {
  const handle = bmc.handle;
  let reads = 0;
  let holdAt = Number.POSITIVE_INFINITY;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  bmc.handle = async (request: Parameters<VirtualBmc["handle"]>[0]) => {
    if (request.method === "GET" && SENSORS_READ.test(request.path)) {
      reads += 1;
      if (reads === holdAt) await released;
    }
    return handle.call(bmc, request);
  };
  return {
    get reads(): number {
      return reads;
    },
    /** Holds the read numbered `n` (counting from the first) until {@link restore}. */
    hold(n: number): void {
      holdAt = n;
    },
    /** Lets a held read go on, and stops watching. */
    restore(): void {
      release();
      bmc.handle = handle;
    },
  };
}

// Acceptance (issue 7): a fan past its critical threshold → BmcSensor/SensorCritical by the next collection,
// blocking allocation until a mark-healthy replace override; a silent DPU agent → HeartbeatTimeout; a maintenance
// override blocks allocation; all in `racksmith health show` and /metrics.
describe("health of a simulated site", () => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  const allocate = (machine: string) =>
    runCliInMemory([
      "instance",
      "allocate",
      "--machine",
      machine,
      "--tenant",
      "acme",
      "--server",
      site.url,
      "--token",
      site.token,
    ]);
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
      // Bounds a stuck run, not a slow one.
      { what: "3 Ready hosts", timeoutMs: 720_000 },
    );
  }, 900_000);
  afterAll(async () => {
    await site?.close();
  });

  it("alerts on a fan past its critical threshold by the next monitor pass, blocking allocation until mark-healthy", async () => {
    const lenovo = site.fleet.bmcs.find((b) => b.vendor === "lenovo" && b.kind === "host");
    if (!lenovo) throw new Error("the scenario has no Lenovo host");
    const hostId = await hostOf(lenovo.mac);
    const sensorReads = watchSensorReads(lenovo);
    let health: HealthJson;
    try {
      // The fan slows below its critical threshold and the BMC says so.
      await (await lenovo.service()).merge("/redfish/v1/Chassis/1/Sensors/80L0", {
        Reading: 300,
        Thresholds: { LowerCritical: { Reading: 1000 }, LowerCaution: { Reading: 2000 } },
        Status: { State: "Enabled", Health: "Critical" },
      });
      // The first pass that reads the sensors after the change sees the fan critical; the one after it is held
      // when it comes to read them: by then the first one's report must carry the alert.
      const next = sensorReads.reads + 1;
      sensorReads.hold(next + 1);
      await vi.waitFor(() => expect(sensorReads.reads).toBeGreaterThan(next), { timeout: 45_000 });
      health = await cli<HealthJson>("health", "show", hostId);
    } finally {
      sensorReads.restore();
    }
    const alert = health.alerts.find((a) => a.id === "BmcSensor" && a.target === "80L0");
    expect(alert, "no BmcSensor alert for fan 80L0 after the first pass that read it").toBeDefined();
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
  }, 360_000);

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
      { what: "HeartbeatTimeout", timeoutMs: 270_000 },
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
  }, 360_000);

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
  }, 180_000);
});
