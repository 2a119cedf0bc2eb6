import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { DEFAULT_ENGINE_CONFIG, ENGINE_CONFIG_SCHEMA, resolveEngineConfig } from "./config.js";

describe("engine config", () => {
  it("fills every key with its default, the lease being 3 × the handler timeout", () => {
    expect(resolveEngineConfig()).toEqual({
      iterationIntervalMs: 30_000,
      pollIntervalMs: 1_000,
      concurrency: 10,
      handlerTimeoutMs: 180_000,
      leaseMs: 540_000,
      historyLimit: 250,
      shutdownGraceMs: 10_000,
    });
    expect(resolveEngineConfig({ handlerTimeoutMs: 1_000 }).leaseMs).toBe(3_000);
    expect(
      resolveEngineConfig({ handlerTimeoutMs: 1_000, leaseMs: 1_500, concurrency: undefined }).leaseMs,
    ).toBe(1_500);
  });

  it("names every bad key in one error", () => {
    expect(() => resolveEngineConfig({ concurrency: 0, pollIntervalMs: 10.5 })).toThrow(
      "invalid engine config: engine.pollIntervalMs must be integer; engine.concurrency must be >= 1",
    );
    expect(() => resolveEngineConfig({ concurency: 3 } as never)).toThrow(
      "engine.concurency is not a known key",
    );
  });

  it("refuses a lease that a live handler could outlast", () => {
    expect(() => resolveEngineConfig({ handlerTimeoutMs: 5_000, leaseMs: 5_000 })).toThrow(
      /engine\.leaseMs \(5000\) must be above engine\.handlerTimeoutMs \(5000\)/,
    );
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
    expect(Object.keys(properties).sort()).toEqual([...Object.keys(DEFAULT_ENGINE_CONFIG), "leaseMs"].sort());
  });
});
