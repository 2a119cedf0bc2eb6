import { describe, expect, it } from "vitest";
import { HEALTH_CONFIG_SCHEMA, resolveHealthConfig } from "./config.js";

describe("resolveHealthConfig", () => {
  it("applies the defaults", () => {
    expect(resolveHealthConfig()).toEqual({
      sensorAlerts: "enabled",
      dpuHeartbeatTimeoutMs: 300_000,
      historyLimit: 250,
      unchangedReportRefreshMs: 300_000,
    });
    expect(resolveHealthConfig({ sensorAlerts: "monitorOnly" }).sensorAlerts).toBe("monitorOnly");
  });

  it.each([
    [{ sensorAlerts: "loud" }, /health\.sensorAlerts must be equal to one of the allowed values/],
    [{ historyLimit: 0 }, /health\.historyLimit must be >= 1/],
    [{ unchangedReportRefreshMs: -1 }, /health\.unchangedReportRefreshMs must be >= 0/],
    [{ heartbeat: 1 }, /health\.heartbeat is not a known key/],
  ])("refuses %j naming the key", (config, message) => {
    expect(() => resolveHealthConfig(config as never)).toThrow(message);
  });

  it("documents every key with a description and a default", () => {
    for (const [key, schema] of Object.entries(HEALTH_CONFIG_SCHEMA.properties as Record<string, object>)) {
      expect(schema, key).toHaveProperty("description");
      expect((schema as { description: string }).description, key).toMatch(/Default \S+\.$/);
    }
  });
});
