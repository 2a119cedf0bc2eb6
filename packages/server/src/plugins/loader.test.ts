import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { createPluginHost } from "./bootstrap.js";
import { PluginLoadError } from "./errors.js";
import { loadPlugins } from "./loader.js";
import { PluginHost } from "./pluginHost.js";

const project = fileURLToPath(new URL("../../test/fixtures/plugin-project", import.meta.url));

async function loadError(
  specifier: string,
  options: { coreVersion?: string } = {},
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
