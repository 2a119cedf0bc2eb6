import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../config/index.js";
import { DEFAULT_MONITOR_CONFIG, resolveMonitorConfig } from "./config.js";

describe("monitor config", () => {
  it("defaults to sensors every minute, no event logs", () => {
    expect(resolveMonitorConfig()).toEqual(DEFAULT_MONITOR_CONFIG);
    expect(DEFAULT_MONITOR_CONFIG).toMatchObject({
      enabled: true,
      sensorIntervalMs: 60_000,
      concurrency: 20,
    });
  });

  it("resolves eventLogDir against the config file's folder and names bad keys", () => {
    expect(resolveMonitorConfig({ eventLogDir: "logs/bmc" }, "/etc/racksmith").eventLogDir).toBe(
      resolve("/etc/racksmith", "logs/bmc"),
    );
    expect(() => resolveMonitorConfig({ concurrency: 0, intervalMs: 5 } as never)).toThrow(
      /monitor\.concurrency must be >= 1.*monitor\.intervalMs is not a known key|monitor\.intervalMs is not a known key.*monitor\.concurrency/,
    );
  });

  it("is a section of racksmith.yaml", () => {
    const config = parseConfig("monitor:\n  sensorIntervalMs: 30000\n", "racksmith.yaml");
    expect(config.monitor).toMatchObject({ sensorIntervalMs: 30_000 });
  });
});
