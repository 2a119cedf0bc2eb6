import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.js";
import { loadConfig, parseConfig } from "./loadConfig.js";
import { configSchema, DEFAULT_CONFIG } from "./schema.js";

function problems(text: string): string[] {
  try {
    parseConfig(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe("config_invalid");
    return [...(error as ConfigError).problems];
  }
  throw new Error("expected a ConfigError");
}

describe("config", () => {
  it("accepts YAML and JSON", () => {
    expect(parseConfig("plugins:\n  - '@racksmith/driver-dell'\n")).toMatchObject({
      plugins: ["@racksmith/driver-dell"],
      drivers: {},
    });
    expect(parseConfig('{"plugins": ["./my-driver.js"]}')).toMatchObject({
      plugins: ["./my-driver.js"],
      drivers: {},
    });
    expect(parseConfig("")).toEqual(DEFAULT_CONFIG);
  });

  it.each([
    [
      "plugns: []",
      "unknown key plugns (did you mean plugins?); allowed: plugins, drivers, healthProbes, server, database, auth, engine, inventory, siteExplorer, lifecycle, monitor, health, skuValidation, fabrics, log",
    ],
    ["plugins: '@racksmith/driver-dell'", "plugins: must be a list"],
    ["plugins:\n  - 42", "plugins[0]: must be a string"],
    ["plugins: [a, a]", "plugins: must NOT have duplicate items (items ## 1 and 0 are identical)"],
    ["plugins: [\n", expect.stringMatching(/^line \d+: /)],
    ["database:\n  schema: Racksmith-Prod", expect.stringMatching(/^database\.schema: /)],
    ["database:\n  upkeepIntervalMs: -1", "database.upkeepIntervalMs: must be >= 0"],
    ["database:\n  upkeepIntervalMs: soon", "database.upkeepIntervalMs: must be an integer"],
    ["database:\n  poolSize: 0", "database.poolSize: must be >= 1"],
    ["database:\n  poolSize: 2.5", "database.poolSize: must be an integer"],
    ["database:\n  poolSize: 100000", "database.poolSize: must be <= 1000"],
  ])("%j → %s", (text, expected) => {
    expect(problems(text)).toEqual([expected]);
  });

  it("reports every problem at once", () => {
    expect(problems("plugins: [1, 2]\nextra: true")).toHaveLength(3);
  });

  it("finds racksmith.yaml in the working directory, names the file in errors, and defaults without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-config-"));
    expect(loadConfig({ cwd: dir })).toMatchObject({ config: { plugins: [], drivers: {} }, file: undefined });
    writeFileSync(join(dir, "racksmith.yaml"), "plugins: [x]\nbogus: 1\n");
    const error = (() => {
      try {
        loadConfig({ cwd: dir });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error?.message).toMatch(/racksmith\.yaml: unknown key bogus/);
    expect(() => loadConfig({ cwd: dir, file: "missing.yaml" })).toThrow(/missing\.yaml: file not found/);
  });

  it.each([
    [
      "server:\n  http: localhost",
      'server.http: must look like "127.0.0.1:8080" or "0.0.0.0:8080" or "[::1]:8080"',
    ],
    [
      "database:\n  url: mysql://x:pw@db",
      'database.url: must look like "postgres://racksmith@db.example:5432/racksmith"',
    ],
    ["engine:\n  concurrency: 0", "engine.concurrency: must be >= 1"],
    ["log:\n  level: loud", "log.level: must be one of"],
  ])("checks the service sections: %j", (text, expected) => {
    expect(problems(text).join("; ")).toContain(expected);
    // A pattern error shows examples, never the value (a database URL may hold a password).
    expect(problems(text).join("; ")).not.toContain(":pw@");
  });

  it("documents every key with a description and a default", () => {
    const undocumented: string[] = [];
    const walk = (schema: Record<string, unknown>, path: string): void => {
      for (const [key, value] of Object.entries(
        (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (key === "$schema") continue;
        const documented =
          typeof value.description === "string" && ("default" in value || /default/i.test(value.description));
        if (!documented) undocumented.push(`${path}${key}`);
        walk(value, `${path}${key}.`);
      }
    };
    walk(configSchema, "");
    expect(undocumented).toEqual([]);
  });
});
