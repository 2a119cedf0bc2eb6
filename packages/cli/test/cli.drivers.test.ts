import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EXAMPLE_MOCKUP } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/runCliForTest.js";

// A project with third-party plugin fixtures in its node_modules (shared with the server's plugin loader tests).
const project = fileURLToPath(new URL("../../server/test/fixtures/plugin-project", import.meta.url));

describe("racksmith drivers list", () => {
  it("lists the built-in driver and the plugin the config registers", async () => {
    const drivers = await cliJson<Array<Record<string, unknown>>>(["drivers", "list"], project);
    expect(drivers).toEqual([
      expect.objectContaining({ name: "redfish-standard", package: "@racksmith/core" }),
      {
        name: "fixture",
        vendor: "Fixture Corp",
        package: "@fixture/good-driver",
        version: "1.2.3",
        models: ["FX-1"],
        capabilities: ["power", "inventory"],
      },
    ]);
    const table = await cli(["drivers", "list"], project);
    expect(table.stdout).toMatch(/fixture\s+Fixture Corp\s+@fixture\/good-driver\s+1\.2\.3\s+FX-1/);
  });

  it.each([
    [
      "missing",
      /plugin @fixture\/missing: package not found .* — install it \(npm install @fixture\/missing\)/,
    ],
    [
      "bad-manifest",
      /plugin @fixture\/bad-manifest: invalid manifest: missing apiVersion — its default export must be definePlugin/,
    ],
    [
      "not-a-plugin",
      /plugin @fixture\/not-a-plugin: is not a Racksmith plugin .* — its default export must be definePlugin/,
    ],
    ["wrong-api", /plugin @fixture\/wrong-api: was built for plugin API 99, .* — upgrade @racksmith\/core/],
    [
      "old-core",
      /plugin @fixture\/old-core: requires @racksmith\/core \^9\.0\.0, but .* is running — install a version/,
    ],
    [
      "no-peer",
      /plugin @fixture\/no-peer: its package\.json declares no peerDependencies\["@racksmith\/core"\] — add/,
    ],
    [
      "duplicate-driver",
      /plugin @fixture\/duplicate-driver: driver "fixture" is already registered by @fixture\/good-driver — list only one/,
    ],
  ])("refuses the %s plugin with a message naming the package and the fix", async (name, message) => {
    const run = await cli(["drivers", "list", "--config", `broken/${name}.yaml`], project);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it("names the config key path when the config itself is wrong", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-drivers-"));
    writeFileSync(join(dir, "racksmith.yaml"), "plugins:\n  - 7\n");
    const run = await cli(["drivers", "list"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/racksmith\.yaml: plugins\[0\]: must be a string \[config_invalid\]/);
  });
});

describe("racksmith driver test", () => {
  it("runs the conformance suite for the built-in driver and passes", async () => {
    const report = await cliJson<{
      driver: string;
      passed: boolean;
      results: Array<{ capability: string; status: string }>;
    }>(["driver", "test", "redfish-standard", "--mockup", EXAMPLE_MOCKUP]);
    expect(report.passed).toBe(true);
    expect(report.results.find((r) => r.capability === "lockdown")?.status).toBe("not_supported");
  });

  it("runs a plugin package's drivers and exits 1 when a check fails", async () => {
    // The fixture driver declares only power and inventory, so every other capability must be not_supported;
    // it inherits RedfishStandard, which really can do them — an honest-declaration failure.
    const run = await cli(["driver", "test", "@fixture/good-driver", "--mockup", EXAMPLE_MOCKUP], project);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^fixture on .*: FAILED/);
    expect(run.stdout).toMatch(
      /bios\s+no\s+fail\s+the driver does not declare bios, yet the operation succeeded/,
    );
    expect(run.stdout).toMatch(/detect\s+yes\s+fail\s+fixture does not recognise its own mockup/);
  });
});
