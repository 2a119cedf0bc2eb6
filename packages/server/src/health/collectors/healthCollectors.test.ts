import type { HealthCollectorContext, HealthProbe, HealthReport } from "@racksmith/core/health";
import { emptyHealthReport } from "@racksmith/core/health";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureLogger, openTestDatabase, type TestDatabase, waitFor } from "../../testing/index.js";
import { HealthCollectors } from "./healthCollectors.js";

let testDb: TestDatabase;

async function addMachine(id: string, kind: "host" | "dpu", index: number, hostId?: string): Promise<void> {
  await testDb.database.db
    .insertInto("machines")
    .values({
      id,
      kind,
      serial: `SN-${id}`,
      bmc_address: `10.0.0.${index}`,
      bmc_mac: `02:00:00:00:00:0${index}`,
      host_id: hostId ?? null,
      host_facing_mac: hostId ? `02:00:00:00:01:0${index}` : null,
      vendor: "test",
      model: "test",
      created_at: new Date(),
    })
    .execute();
}

/** A collecting probe whose every run is the next function of `runs` (the last one repeats). */
function collector(
  name: string,
  runs: Array<(context: HealthCollectorContext) => Promise<void>>,
  targets: HealthProbe["targets"] = ["host"],
): HealthProbe & { started: number } {
  const probe = {
    name,
    ids: ["Collected"],
    targets,
    started: 0,
    collect: async (context: HealthCollectorContext) => {
      const run = runs[Math.min(probe.started, runs.length - 1)];
      probe.started += 1;
      await run?.(context);
    },
  };
  return probe;
}

/** Resolves when the signal aborts: a collector that watches until the service stops. */
const untilStopped = (context: HealthCollectorContext) =>
  new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve(), { once: true }));

const alert = (message: string): HealthReport => ({
  ...emptyHealthReport("ignored"),
  alerts: [{ id: "Collected", message, classifications: ["PreventAllocations"] }],
});

function collectorsWith(probes: HealthProbe[], options: { settings?: Record<string, unknown> } = {}) {
  const stored: Array<[string, HealthReport]> = [];
  const logs = captureLogger();
  const collectors = new HealthCollectors({
    database: testDb.database.db,
    probes: () => probes,
    recordReport: async (machineId, report) => {
      if (machineId === "ghost") throw new Error(`machine ${machineId} not found`);
      stored.push([machineId, report]);
    },
    probeSettings: (name) => (name === probes[0]?.name ? options.settings : undefined),
    logger: logs.logger,
    restartDelayMs: 1,
    maxRestartDelayMs: 4,
  });
  return { collectors, stored, logs };
}

beforeAll(async () => {
  testDb = await openTestDatabase("collectors");
});
afterAll(async () => {
  await testDb.close();
});
beforeEach(async () => {
  await testDb.database.db.deleteFrom("machines").execute();
  await addMachine("h1", "host", 1);
  await addMachine("d1", "dpu", 2, "h1");
});

describe("health collectors", () => {
  it("start each collecting probe once with its machines and settings, and store its reports under its name", async () => {
    const seen: unknown[] = [];
    const probe = collector(
      "link-watch",
      [
        async (context) => {
          seen.push(await context.machines(), context.settings);
          context.publish("h1", alert("link down"));
          await untilStopped(context);
        },
      ],
      ["dpu", "bmc"],
    );
    const polled: HealthProbe = {
      name: "polled",
      ids: ["Polled"],
      targets: ["host"],
      run: async () => emptyHealthReport("polled"),
    };
    const { collectors, stored } = collectorsWith([probe, polled], { settings: { port: 7 } });
    collectors.start();
    collectors.start();
    await waitFor(() => stored.length === 1);
    expect(seen).toEqual([
      [
        { machineId: "d1", kind: "dpu" },
        { machineId: "d1", kind: "bmc" },
        { machineId: "h1", kind: "bmc" },
      ],
      { port: 7 },
    ]);
    expect(stored[0]?.[0]).toBe("h1");
    expect(stored[0]?.[1]).toMatchObject({ source: "link-watch", alerts: [{ message: "link down" }] });
    expect(collectors.status()).toEqual([
      { probe: "link-watch", running: true, restarts: 0, published: 1, rejected: 0, lastError: null },
    ]);
    await collectors.stop();
    expect(probe.started).toBe(1);
    expect(collectors.status()[0]?.running).toBe(false);
  });

  it("refuse an invalid report and one the store refuses, log each, and keep collecting", async () => {
    const probe = collector("flaky-reports", [
      async (context) => {
        context.publish("h1", { ...alert(""), alerts: [{ id: "", message: "x", classifications: [] }] });
        context.publish("ghost", alert("who?"));
        context.publish("h1", alert("fine"));
        await untilStopped(context);
      },
    ]);
    const { collectors, stored, logs } = collectorsWith([probe]);
    collectors.start();
    await waitFor(() => stored.length === 1);
    await collectors.stop();
    expect(stored.map(([id, report]) => [id, report.alerts[0]?.message])).toEqual([["h1", "fine"]]);
    expect(collectors.status()[0]).toMatchObject({ published: 1, rejected: 2, restarts: 0 });
    const refused = logs.records.filter((r) => r.message === "health collector report refused");
    expect(refused.map((r) => [r.fields.probe, r.fields.machineId])).toEqual([
      ["flaky-reports", "h1"],
      ["flaky-reports", "ghost"],
    ]);
    expect(String(refused[0]?.fields.err)).toContain("alerts[0].id");
    expect(String(refused[1]?.fields.err)).toContain("machine ghost not found");
  });

  it("start a collector again after it throws or returns, the delay doubling until a report is stored", async () => {
    const probe = collector("restarts", [
      async () => {
        throw new Error("stream closed");
      },
      async () => undefined,
      async () => {
        throw new Error("again");
      },
      async (context) => {
        context.publish("h1", alert("back"));
        await waitFor(() => probe.started === 4 && collectors.status()[0]?.published === 1);
        throw new Error("after a report");
      },
      untilStopped,
    ]);
    const { collectors, logs } = collectorsWith([probe]);
    collectors.start();
    await waitFor(() => probe.started === 5);
    await collectors.stop();
    const restarts = logs.records.filter((r) => r.message === "health collector ended; starting it again");
    expect(restarts.map((r) => [r.fields.err, r.fields.restartInMs])).toEqual([
      ["stream closed", 1],
      ["it returned while the service was running", 2],
      ["again", 4],
      ["after a report", 1],
    ]);
    expect(collectors.status()[0]).toMatchObject({
      restarts: 4,
      lastError: "after a report",
      running: false,
    });
  });

  it("stop: aborts every collector and waits for the reports it published to be stored", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const probe = collector("slow-store", [
      async (context) => {
        context.publish("h1", alert("late"));
        await untilStopped(context);
        order.push("collector stopped");
      },
    ]);
    const logs = captureLogger();
    const collectors = new HealthCollectors({
      database: testDb.database.db,
      probes: () => [probe],
      recordReport: async () => {
        await gate;
        order.push("report stored");
      },
      logger: logs.logger,
    });
    collectors.start();
    await waitFor(() => probe.started === 1);
    const stopped = collectors.stop().then(() => order.push("stop resolved"));
    await waitFor(() => order.length === 1);
    release();
    await stopped;
    expect(order).toEqual(["collector stopped", "report stored", "stop resolved"]);
    expect(logs.records.filter((r) => r.level === "warn")).toEqual([]);
  });
});
