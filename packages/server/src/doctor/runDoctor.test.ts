import { CORE_VERSION } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { pluginPackage, tempProject } from "./__fixtures__/project.js";
import { runDoctor } from "./runDoctor.js";

const FREE_PORTS = 'server:\n  http: "127.0.0.1:0"\n  grpc: "127.0.0.1:0"\n';

describe("runDoctor", () => {
  it("a healthy project: every check in order, none failed", async () => {
    const dir = tempProject(
      `plugins: [./plugins/ok]\n${FREE_PORTS}`,
      pluginPackage("ok", `^${CORE_VERSION}`),
    );
    const checks = await runDoctor({ cwd: dir, env: {} });
    expect(checks.map((check) => [check.id, check.status])).toEqual([
      ["config", "ok"],
      ["plugins", "ok"],
      ["secrets", "ok"],
      ["database", "ok"],
      ["listeners", "ok"],
      ["node", "ok"],
    ]);
  });

  it("a config that cannot load: the checks that need it are skipped, saying why", async () => {
    const dir = tempProject("serverr: {}\n");
    const checks = await runDoctor({ cwd: dir, env: {}, databaseUrl: "postgres://u:p@127.0.0.1:1/x" });
    expect(checks.map((check) => [check.id, check.status])).toEqual([
      ["config", "fail"],
      ["plugins", "skip"],
      ["secrets", "skip"],
      ["database", "skip"],
      ["listeners", "skip"],
      ["node", "ok"],
    ]);
    expect(checks[1]?.detail).toBe("not run: the config file has problems");
  });

  it("a plugin that fails: the plugin settings are not checked, and the config finding says so", async () => {
    const dir = tempProject(
      `plugins: [./plugins/future]\ndrivers:\n  nothing: {}\n${FREE_PORTS}`,
      pluginPackage("future", "^99.0.0"),
    );
    const checks = await runDoctor({ cwd: dir, env: {} });
    expect(checks[0]).toMatchObject({
      id: "config",
      status: "ok",
      detail: expect.stringContaining("not checked: a plugin failed to load"),
    });
    expect(checks[1]).toMatchObject({
      id: "plugins",
      status: "fail",
      detail: expect.stringContaining("^99.0.0"),
    });
  });

  it("settings that need the plugins are config findings once the plugins load", async () => {
    const dir = tempProject(`drivers:\n  nothing: {}\n${FREE_PORTS}`);
    const checks = await runDoctor({ cwd: dir, env: {} });
    expect(checks[0]).toMatchObject({
      id: "config",
      status: "fail",
      detail: expect.stringContaining("drivers.nothing: no driver named nothing is loaded"),
    });
    expect(checks[1]).toMatchObject({ id: "plugins", status: "ok" });
  });
});
