import { fileURLToPath } from "node:url";
import { CORE_VERSION } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { loadProject, pluginPackage, tempProject } from "./__fixtures__/project.js";
import { checkPlugins } from "./pluginsCheck.js";
import { checkPluginSettings } from "./settingsCheck.js";

const FIXTURES = fileURLToPath(
  new URL("../../test/fixtures/plugin-project/node_modules/@fixture/", import.meta.url),
);

describe("checkPlugins", () => {
  it("ok: each plugin's name@version and the running core", async () => {
    const dir = tempProject(
      `plugins:\n  - ${FIXTURES}good-driver\n  - ./plugins/mine\n`,
      pluginPackage("mine", `^${CORE_VERSION}`),
    );
    const result = await checkPlugins(loadProject(dir), dir);
    expect(result.allLoaded).toBe(true);
    expect(result.checks).toEqual([
      {
        id: "plugins",
        title: "plugins",
        status: "ok",
        detail: `@fixture/good-driver@1.2.3, mine@1.0.0 on @racksmith/core ${CORE_VERSION} (plugin API 1)`,
      },
    ]);
  });

  it("none configured is fine", async () => {
    const dir = tempProject("plugins: []\n");
    const [check] = (await checkPlugins(loadProject(dir), dir)).checks;
    expect(check).toMatchObject({ status: "ok", detail: expect.stringMatching(/^none configured/) });
  });

  it("every bad plugin is reported with the loader's fix, not only the first", async () => {
    const dir = tempProject(
      [
        "plugins:",
        `  - ${FIXTURES}old-core`,
        "  - ./plugins/future",
        `  - ${FIXTURES}good-driver`,
        "  - ./missing.js",
        `  - ${FIXTURES}wrong-api`,
      ].join("\n"),
      pluginPackage("future", "^99.0.0"),
    );
    const result = await checkPlugins(loadProject(dir), dir);
    expect(result.allLoaded).toBe(false);
    expect(result.checks.map(({ status, detail, fix }) => ({ status, detail, fix }))).toEqual([
      {
        status: "fail",
        detail: `plugin @fixture/old-core: requires @racksmith/core ^9.0.0, but ${CORE_VERSION} is running [plugin_core_version_mismatch]`,
        fix: `install a version of @fixture/old-core that supports @racksmith/core ${CORE_VERSION}, or a core within ^9.0.0`,
      },
      {
        status: "fail",
        detail: `plugin future: requires @racksmith/core ^99.0.0, but ${CORE_VERSION} is running [plugin_core_version_mismatch]`,
        fix: `install a version of future that supports @racksmith/core ${CORE_VERSION}, or a core within ^99.0.0`,
      },
      {
        status: "fail",
        detail: expect.stringMatching(
          /^plugin \.\/missing\.js: no file or directory at .* \[plugin_not_found\]$/,
        ),
        fix: "fix the path in the config",
      },
      {
        status: "fail",
        detail: expect.stringMatching(
          /^plugin @fixture\/wrong-api: was built for plugin API \d+.*\[plugin_api_version_mismatch\]$/,
        ),
        fix: expect.any(String),
      },
    ]);
  });
});

describe("checkPluginSettings", () => {
  it("finds nothing wrong with plugins that load together and settings that match them", async () => {
    const dir = tempProject(`plugins: [${FIXTURES}good-driver]\ndrivers:\n  fixture: {}\n`);
    expect(await checkPluginSettings(loadProject(dir), dir)).toEqual({ config: [], plugins: [] });
  });

  it("drivers.* naming no loaded driver is a config finding", async () => {
    const dir = tempProject(`plugins: [${FIXTURES}good-driver]\ndrivers:\n  dell: {}\n`);
    const { config, plugins } = await checkPluginSettings(loadProject(dir), dir);
    expect(plugins).toEqual([]);
    expect(config).toEqual([
      expect.objectContaining({
        id: "config",
        status: "fail",
        detail:
          "racksmith.yaml: drivers.dell: no driver named dell is loaded (loaded: redfish-standard, fixture)",
        fix: "edit racksmith.yaml: fix drivers.dell",
      }),
    ]);
  });

  it("two plugins that clash are a plugins finding", async () => {
    const dir = tempProject(`plugins:\n  - ${FIXTURES}good-driver\n  - ${FIXTURES}duplicate-driver\n`);
    const { config, plugins } = await checkPluginSettings(loadProject(dir), dir);
    expect(config).toEqual([]);
    expect(plugins).toEqual([
      expect.objectContaining({
        id: "plugins",
        status: "fail",
        detail: expect.stringContaining("duplicate-driver"),
      }),
    ]);
  });

  it("a feature's own check: a fabric section with no fabric plugin", async () => {
    const dir = tempProject("fabrics:\n  infiniband: { endpoint: https://ufm }\n");
    const { config } = await checkPluginSettings(loadProject(dir), dir);
    expect(config).toEqual([
      expect.objectContaining({ status: "fail", detail: expect.stringContaining("fabrics.infiniband") }),
    ]);
  });
});
