import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.js";
import { loadConfig, parseConfig } from "./loadConfig.js";

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
    expect(parseConfig("plugins:\n  - '@racksmith/driver-dell'\n")).toEqual({
      plugins: ["@racksmith/driver-dell"],
      drivers: {},
    });
    expect(parseConfig('{"plugins": ["./my-driver.js"]}')).toEqual({
      plugins: ["./my-driver.js"],
      drivers: {},
    });
    expect(parseConfig("")).toEqual({ plugins: [], drivers: {} });
  });

  it.each([
    ["plugns: []", "unknown key plugns (did you mean plugins?); allowed: plugins, drivers"],
    ["plugins: '@racksmith/driver-dell'", "plugins: must be a list"],
    ["plugins:\n  - 42", "plugins[0]: must be a string"],
    ["plugins: [a, a]", "plugins: must NOT have duplicate items (items ## 1 and 0 are identical)"],
    ["plugins: [\n", expect.stringMatching(/^line \d+: /)],
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
});
