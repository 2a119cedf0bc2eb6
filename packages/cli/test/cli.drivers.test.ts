import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CORE_VERSION } from "@racksmith/core";
import { EXAMPLE_MOCKUP } from "@racksmith/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/runCliForTest.js";

// A project with third-party plugin fixtures in its node_modules (shared with the server's plugin loader tests).
const project = fileURLToPath(new URL("../../server/test/fixtures/plugin-project", import.meta.url));

describe("racksmith drivers list", () => {
  it("lists the built-in driver and the plugin the config registers", async () => {
    const drivers = await cliJson<Array<Record<string, unknown>>>(["drivers", "list"], project);
    expect(drivers).toEqual([
      expect.objectContaining({ kind: "bmc-driver", name: "redfish-standard", package: "@racksmith/core" }),
      {
        kind: "bmc-driver",
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

  it("lists the validation runners and health probes the config loads, after the drivers", async () => {
    const source = { package: "@fixture/health-plugin", version: "2.0.0" };
    const listed = await cliJson<Array<Record<string, unknown>>>(
      ["drivers", "list", "--config", "health.yaml"],
      project,
    );
    expect(listed).toEqual([
      expect.objectContaining({ kind: "bmc-driver", name: "redfish-standard" }),
      { kind: "validation-runner", name: "fixture-burn-in", ...source, contexts: ["discovery", "cleanup"] },
      {
        kind: "health-probe",
        name: "fixture-fans",
        ...source,
        mode: "polled",
        targets: ["bmc"],
        ids: ["FixtureFan"],
      },
      {
        kind: "health-probe",
        name: "fixture-links",
        ...source,
        mode: "collecting",
        targets: ["host"],
        ids: ["FixtureLink"],
      },
    ]);
    const table = await cli(["drivers", "list", "--config", "health.yaml"], project);
    expect(table.stdout).toMatch(
      /validation-runner\s+fixture-burn-in\s+-\s+@fixture\/health-plugin\s+2\.0\.0/,
    );
    expect(table.stdout).toMatch(/health-probe\s+fixture-links\s+-\s+@fixture\/health-plugin/);
  });

  it("lists the rules of the validation plugins: sku-rules and host-test-rules rows", async () => {
    const listed = await cliJson<Array<Record<string, unknown>>>(
      ["drivers", "list", "--config", "validation.yaml"],
      project,
    );
    expect(listed.slice(1)).toEqual([
      {
        kind: "sku-rules",
        name: "sku",
        package: "@racksmith/validation-sku",
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      },
      {
        kind: "host-test-rules",
        name: "host-tests",
        package: "@racksmith/validation-host-tests",
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        builtInTests: 5,
      },
    ]);
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

  it("resolves plugin names beside the racksmith installation when the config's folder has none", async () => {
    // A config in a fresh folder outside the repository: no node_modules above it has a driver.
    const dir = mkdtempSync(join(tmpdir(), "racksmith-drivers-"));
    const drivers = ["dell", "hpe", "lenovo", "supermicro", "nvidia-dpu"].map(
      (d) => `@racksmith/driver-${d}`,
    );
    writeFileSync(join(dir, "racksmith.yaml"), `plugins:\n${drivers.map((d) => `  - "${d}"\n`).join("")}`);
    const listed = await cliJson<Array<{ name: string; package: string }>>([
      "drivers",
      "list",
      "--config",
      join(dir, "racksmith.yaml"),
    ]);
    expect(listed.map((d) => d.package)).toEqual(["@racksmith/core", ...drivers]);
    expect(listed.map((d) => d.name)).toEqual(
      expect.arrayContaining(["redfish-standard", "dell", "hpe", "lenovo", "supermicro"]),
    );
    rmSync(dir, { recursive: true, force: true });
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

describe("racksmith driver new", () => {
  const made: string[] = [];
  /** A fresh folder outside the repository. */
  const freshDir = (): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "racksmith-driver-new-")));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const repoNodeModules = fileURLToPath(new URL("../../../node_modules", import.meta.url));
  const [major, minor] = CORE_VERSION.split(".");

  it("creates a driver package that passes `racksmith driver test` as generated", async () => {
    const cwd = freshDir();
    const created = await cliJson<{ dir: string; packageName: string; driver: string; files: string[] }>(
      ["driver", "new", "acme"],
      cwd,
    );
    const dir = join(cwd, "racksmith-driver-acme");
    expect(created).toMatchObject({ dir, packageName: "racksmith-driver-acme", driver: "acme" });
    expect(created.files.filter((file) => !file.startsWith("mockups/"))).toEqual([
      ".changeset/README.md",
      ".changeset/config.json",
      ".gitignore",
      "README.md",
      "package.json",
      "src/driver.ts",
      "src/index.ts",
      "test/conformance.test.ts",
      "tsconfig.json",
    ]);
    expect(created.files).toContain("mockups/example/redfish/v1/index.json");
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "racksmith-driver-acme",
      type: "module",
      license: expect.any(String),
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
      files: expect.arrayContaining(["dist", "mockups"]),
      peerDependencies: { "@racksmith/core": `^${major}.${minor}.0` },
    });
    expect(Object.keys(manifest.devDependencies)).toEqual(
      expect.arrayContaining([
        "@racksmith/core",
        "@racksmith/testkit",
        "@racksmith/cli",
        "typescript",
        "vitest",
      ]),
    );
    const root = JSON.parse(readFileSync(join(dir, "mockups/example/redfish/v1/index.json"), "utf8"));
    expect(root).toMatchObject({ Vendor: "Acme", Product: "Acme BMC" });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/\| `lockdown` \| no \|/);

    // The sources load under this test run (their @racksmith/* imports resolve to the workspace's).
    symlinkSync(repoNodeModules, join(dir, "node_modules"));
    const run = await cli(["driver", "test", "./src/index.ts", "--mockup", "mockups/example", "--json"], dir);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { driver: string; passed: boolean; results: unknown[] };
    expect(report).toMatchObject({ driver: "acme", passed: true });
    expect(report.results).toContainEqual(
      expect.objectContaining({ capability: "detect", status: "pass", checks: ["detect score 70"] }),
    );
    expect(report.results).toContainEqual(
      expect.objectContaining({ capability: "lockdown", declared: false, status: "not_supported" }),
    );
  });

  it("takes a scope, a vendor and a folder", async () => {
    const cwd = freshDir();
    const run = await cli(
      ["driver", "new", "big-iron", "--scope", "@example", "--vendor", "Big Iron Systems", "--dir", "pkg"],
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^created @example\/racksmith-driver-big-iron \(driver big-iron\) in .*pkg: \d+ files/,
    );
    expect(JSON.parse(readFileSync(join(cwd, "pkg/package.json"), "utf8")).name).toBe(
      "@example/racksmith-driver-big-iron",
    );
    const driver = readFileSync(join(cwd, "pkg/src/driver.ts"), "utf8");
    expect(driver).toContain("export class BigIronDriver extends RedfishStandard");
    expect(driver).toContain('vendor: "Big Iron Systems"');
    expect(driver).toContain("const VENDOR = /^Big Iron Systems\\b/i;");
  });

  it.each([
    ["Acme", /invalid driver name "Acme": a driver name is kebab-case/],
    ["1acme", /invalid driver name "1acme": a driver name is kebab-case: .*starting with a letter/],
    ["acme--x", /invalid driver name "acme--x": .*single hyphens/],
    ["redfish-standard", /invalid driver name "redfish-standard": it is the built-in standard driver's/],
  ])("refuses the name %s naming the rule", async (name, message) => {
    const cwd = freshDir();
    const run = await cli(["driver", "new", name], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("Run 'racksmith driver new --help' for usage.");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("refuses a bad scope and a bad vendor", async () => {
    const cwd = freshDir();
    expect((await cli(["driver", "new", "acme", "--scope", "@Acme Corp"], cwd)).stderr).toMatch(
      /invalid --scope "@Acme Corp": an npm scope is lowercase/,
    );
    expect((await cli(["driver", "new", "acme", "--vendor", 'Acme "Corp"'], cwd)).stderr).toMatch(
      /invalid --vendor "Acme \\"Corp\\"": a vendor is letters, digits/,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("refuses a folder that is not empty and writes nothing", async () => {
    const cwd = freshDir();
    mkdirSync(join(cwd, "racksmith-driver-acme"));
    writeFileSync(join(cwd, "racksmith-driver-acme/notes.txt"), "mine\n");
    const run = await cli(["driver", "new", "acme"], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/racksmith-driver-acme is not empty: choose another --dir/);
    expect(readdirSync(join(cwd, "racksmith-driver-acme"))).toEqual(["notes.txt"]);
    // An empty folder is fine.
    mkdirSync(join(cwd, "empty"));
    expect((await cli(["driver", "new", "acme", "--dir", "empty"], cwd)).code).toBe(0);
    expect(existsSync(join(cwd, "empty/src/driver.ts"))).toBe(true);
  });
});
