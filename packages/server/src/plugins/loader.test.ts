import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { createPluginHost } from "./bootstrap.js";
import { PluginLoadError } from "./errors.js";
import { loadPlugins, PLUGIN_FALLBACK_DIRS, resolvePlugin } from "./loader.js";
import { PluginHost } from "./pluginHost.js";

const project = fileURLToPath(new URL("../../test/fixtures/plugin-project", import.meta.url));

async function loadError(
  specifier: string,
  options: { coreVersion?: string; baseDir?: string; fallbackDirs?: string[] } = {},
): Promise<PluginLoadError> {
  const host = new PluginHost();
  const error = await loadPlugins([specifier], { baseDir: project, host, ...options }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginLoadError);
  return error as PluginLoadError;
}

describe("plugin loader", () => {
  it("loads exactly the plugins the config names and registers their drivers after the built-in one", async () => {
    const { host, plugins } = await createPluginHost(loadConfig({ cwd: project }));
    expect(plugins.map((p) => p.manifest.name)).toEqual(["@fixture/good-driver"]);
    expect(host.bmcDrivers().map((d) => [d.definition.name, d.source.plugin, d.source.version])).toEqual([
      ["redfish-standard", "@racksmith/core", expect.any(String)],
      ["fixture", "@fixture/good-driver", "1.2.3"],
    ]);
  });

  it("loads a plugin from a file path relative to the config", async () => {
    const host = new PluginHost();
    await loadPlugins(["./local/file-plugin.js"], { baseDir: project, host });
    expect(host.bmcDriverDefinitions().map((d) => d.name)).toContain("local-file");
  });

  it("keeps hosts apart: a plugin loaded into one host is not seen by another", async () => {
    const first = new PluginHost();
    await loadPlugins(["@fixture/good-driver"], { baseDir: project, host: first });
    expect(new PluginHost().bmcDriverDefinitions().map((d) => d.name)).toEqual(["redfish-standard"]);
  });

  it.each([
    ["@fixture/missing", "plugin_not_found", /package not found.*npm install @fixture\/missing/],
    ["./nowhere/plugin.js", "plugin_not_found", /no file or directory.*fix the path/],
    ["@fixture/unbuilt", "plugin_not_found", /dist\/index\.js does not exist.*build the plugin/],
    ["@fixture/not-a-plugin", "plugin_invalid", /not a Racksmith plugin.*definePlugin/],
    ["@fixture/bad-manifest", "plugin_invalid", /missing apiVersion.*definePlugin/],
    [
      "@fixture/wrong-api",
      "plugin_api_version_mismatch",
      /plugin API 99.*provides API 1.*upgrade @racksmith\/core/,
    ],
    ["@fixture/no-peer", "plugin_invalid", /peerDependencies\["@racksmith\/core"\]/],
  ])("%s fails with %s naming the package and the fix", async (specifier, code, pattern) => {
    const error = await loadError(specifier);
    expect(error.code).toBe(code);
    expect(error.message).toContain(specifier.replace(/^\.\//, "").split("/").pop() ?? "");
    expect(error.message).toMatch(pattern);
  });

  it("refuses a plugin whose core range excludes the running core", async () => {
    const error = await loadError("@fixture/old-core");
    expect(error.code).toBe("plugin_core_version_mismatch");
    expect(error.message).toMatch(
      /@fixture\/old-core: requires @racksmith\/core \^9\.0\.0, but .* is running — install a version/,
    );
  });

  it("checks the range against the core version it is given", async () => {
    const error = await loadError("@fixture/good-driver", { coreVersion: "2.0.0" });
    expect(error.code).toBe("plugin_core_version_mismatch");
  });

  it("refuses a second driver with a name already registered", async () => {
    const host = new PluginHost();
    const error = await loadPlugins(["@fixture/good-driver", "@fixture/duplicate-driver"], {
      baseDir: project,
      host,
    }).catch((e: unknown) => e);
    expect((error as PluginLoadError).code).toBe("plugin_duplicate");
    expect((error as PluginLoadError).message).toMatch(
      /"fixture" is already registered by @fixture\/good-driver/,
    );
  });
});

describe("where package names resolve from", () => {
  const made: string[] = [];
  /** A folder outside the repository, so no node_modules above it knows the fixtures. */
  const elsewhere = (): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "racksmith-plugins-")));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it("falls back to the racksmith installation: the server package's own folder by default", () => {
    expect(PLUGIN_FALLBACK_DIRS).toEqual([resolve(fileURLToPath(new URL("../..", import.meta.url)))]);
  });

  it("loads a package the config's folder lacks from a fallback folder", async () => {
    const host = new PluginHost();
    const [plugin] = await loadPlugins(["@fixture/good-driver"], {
      baseDir: elsewhere(),
      fallbackDirs: [project],
      host,
    });
    expect(plugin?.entry).toBe(join(project, "node_modules/@fixture/good-driver/index.js"));
    expect(host.bmcDriverDefinitions().map((d) => d.name)).toContain("fixture");
  });

  it("prefers the config folder's copy over the installation's", () => {
    const dir = elsewhere();
    const local = join(dir, "node_modules/@fixture/good-driver");
    mkdirSync(local, { recursive: true });
    writeFileSync(
      join(local, "package.json"),
      JSON.stringify({ name: "@fixture/good-driver", main: "main.js" }),
    );
    writeFileSync(join(local, "main.js"), "export default {};\n");
    expect(resolvePlugin("@fixture/good-driver", join(dir, "config"), [project]).entry).toBe(
      join(local, "main.js"),
    );
  });

  it("names every place searched when the package is in none of them", async () => {
    const dir = elsewhere();
    const error = await loadPlugins(["@fixture/missing"], {
      baseDir: dir,
      fallbackDirs: [project],
      host: new PluginHost(),
    }).catch((e: unknown) => e);
    expect((error as PluginLoadError).code).toBe("plugin_not_found");
    expect((error as PluginLoadError).message).toBe(
      `plugin @fixture/missing: package not found in any node_modules folder from ${dir} up, nor from ${project} up — install it (npm install @fixture/missing) in the config's folder or beside the racksmith command, or fix its name in the config`,
    );
  });

  it("names the installation searched by default, and only the config's folder without fallbacks", async () => {
    const dir = elsewhere();
    const byDefault = (await loadError("@fixture/missing", { baseDir: dir })).message;
    expect(byDefault).toContain(`from ${dir} up, nor from ${PLUGIN_FALLBACK_DIRS[0]} up`);
    const none = (await loadError("@fixture/missing", { baseDir: dir, fallbackDirs: [] })).message;
    expect(none).toContain(`from ${dir} up — install it`);
  });
});
