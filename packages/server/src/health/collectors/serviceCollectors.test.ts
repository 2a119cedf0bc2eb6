import { fileURLToPath } from "node:url";
import { silentLogger } from "@racksmith/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadedConfig, loadConfig } from "../../config/index.js";
import { type RunningService, startService } from "../../service/index.js";
import { waitFor } from "../../testing/index.js";

const project = fileURLToPath(new URL("../../../test/fixtures/plugin-project", import.meta.url));

// The service runs a plugin's collecting probe with the operator's `healthProbes` settings, and what the probe
// publishes reaches the host's health like any other source.
describe("a plugin's collecting health probe in the service", () => {
  let service: RunningService;
  let base: string;

  beforeAll(async () => {
    const loaded = loadConfig({ cwd: project, file: "health.yaml" });
    const config: LoadedConfig = {
      ...loaded,
      config: {
        ...loaded.config,
        server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
        healthProbes: { "fixture-links": { message: "cable unplugged" } },
        // Only the collectors: no BMC is reachable here.
        monitor: { sensorIntervalMs: 3_600_000, firmwareIntervalMs: 3_600_000 },
      },
    };
    service = await startService({ config, logger: silentLogger, inMemoryDatabase: true });
    base = `http://127.0.0.1:${service.http.port}`;
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("publishes for a host that appears, with the operator's settings, into the host's aggregate health", async () => {
    await service.database.db
      .insertInto("machines")
      .values({
        id: "host-1",
        kind: "host",
        serial: "SN-1",
        bmc_address: "10.0.0.1",
        bmc_mac: "02:00:00:00:00:01",
        host_id: null,
        host_facing_mac: null,
        vendor: "test",
        model: "test",
        created_at: new Date(),
      })
      .execute();
    const health = await waitFor(
      async () => {
        const response = await fetch(`${base}/api/v1/machines/host-1/health`, {
          headers: { authorization: `Bearer ${service.adminToken}` },
        });
        if (!response.ok) return undefined;
        const body = (await response.json()) as {
          report: { alerts: Array<{ id: string; message: string; classifications: string[] }> };
        };
        return body.report.alerts.some((alert) => alert.id === "FixtureLink") && body.report;
      },
      { timeoutMs: 120_000 },
    );
    expect(health.alerts).toContainEqual(
      expect.objectContaining({
        id: "FixtureLink",
        message: "cable unplugged",
        classifications: ["PreventAllocations"],
      }),
    );
  });

  it("refuses settings the probe's schema does not take, naming the key", async () => {
    const loaded = loadConfig({ cwd: project, file: "health.yaml" });
    const config: LoadedConfig = {
      ...loaded,
      config: { ...loaded.config, healthProbes: { "fixture-links": { mesage: "x" } } },
    };
    await expect(
      startService({ config, logger: silentLogger, inMemoryDatabase: true }),
    ).rejects.toMatchObject({
      code: "config_invalid",
      message: expect.stringContaining(
        "unknown key healthProbes.fixture-links.mesage (did you mean message?)",
      ),
    });
  });
});
