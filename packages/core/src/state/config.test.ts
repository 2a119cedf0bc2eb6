import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { DEFAULT_ENGINE_CONFIG, ENGINE_CONFIG_SCHEMA, resolveEngineConfig } from "./config.js";

describe("engine config", () => {
  it("fills every key with its default, the heartbeat being a third of the lease", () => {
    expect(resolveEngineConfig()).toEqual({
      iterationIntervalMs: 30_000,
      iterationSpreadMs: 30_000,
      waitRecheckMs: 0,
      pollIntervalMs: 1_000,
      concurrency: 10,
      handlerTimeoutMs: 180_000,
      leaseMs: 15_000,
      heartbeatMs: 5_000,
      historyLimit: 250,
      shutdownGraceMs: 10_000,
    });
    expect(resolveEngineConfig({ leaseMs: 3_000 }).heartbeatMs).toBe(1_000);
    // The periodic batch is spread over the interval unless told otherwise.
    expect(resolveEngineConfig({ iterationIntervalMs: 90_000 }).iterationSpreadMs).toBe(90_000);
    expect(resolveEngineConfig({ iterationIntervalMs: 90_000, iterationSpreadMs: 0 }).iterationSpreadMs).toBe(
      0,
    );
    // The lease no longer depends on the handler timeout: a handler may run far longer than one lease.
    expect(
      resolveEngineConfig({ handlerTimeoutMs: 600_000, leaseMs: 1_500, concurrency: undefined }),
    ).toMatchObject({
      leaseMs: 1_500,
      heartbeatMs: 500,
    });
  });

  it("names every bad key in one error", () => {
    expect(() => resolveEngineConfig({ concurrency: 0, pollIntervalMs: 10.5 })).toThrow(
      "invalid engine config: engine.pollIntervalMs must be integer; engine.concurrency must be >= 1",
    );
    expect(() => resolveEngineConfig({ concurency: 3 } as never)).toThrow(
      "engine.concurency is not a known key",
    );
  });

  it("refuses a heartbeat so slow that one late beat would lose a live claim", () => {
    expect(() => resolveEngineConfig({ leaseMs: 5_000, heartbeatMs: 2_501 })).toThrow(
      /engine\.heartbeatMs \(2501\) must be at most half of engine\.leaseMs \(5000\)/,
    );
    expect(resolveEngineConfig({ leaseMs: 5_000, heartbeatMs: 2_500 }).heartbeatMs).toBe(2_500);
  });

  it("publishes a schema for the config file whose defaults are the engine's", () => {
    const validate = new Ajv({ strict: true }).compile(ENGINE_CONFIG_SCHEMA);
    expect(validate({})).toBe(true);
    expect(validate({ concurrency: 4, leaseMs: 10_000 })).toBe(true);
    expect(validate({ unknown: 1 })).toBe(false);
    expect(validate({ concurrency: "4" })).toBe(false);
    const properties = ENGINE_CONFIG_SCHEMA.properties as Record<string, { default?: number }>;
    for (const [key, value] of Object.entries(DEFAULT_ENGINE_CONFIG))
      expect(properties[key]?.default).toBe(value);
    expect(Object.keys(properties).sort()).toEqual(
      [...Object.keys(DEFAULT_ENGINE_CONFIG), "heartbeatMs", "iterationSpreadMs"].sort(),
    );
  });
});
