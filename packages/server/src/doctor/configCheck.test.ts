import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "./__fixtures__/project.js";
import { checkConfig } from "./configCheck.js";

describe("checkConfig", () => {
  it("a valid file: ok, naming it and its plugin count", () => {
    const dir = tempProject("plugins: [./a.js, ./b.js]\n");
    const result = checkConfig({ cwd: dir });
    expect(result.loaded?.file).toBe(join(dir, "racksmith.yaml"));
    expect(result.checks).toEqual([
      { id: "config", title: "config file", status: "ok", detail: "racksmith.yaml: valid, 2 plugins" },
    ]);
  });

  it("no file: the defaults are used, which is fine", () => {
    const dir = tempProject(undefined);
    const result = checkConfig({ cwd: dir });
    expect(result.loaded?.file).toBeUndefined();
    expect(result.checks[0]).toMatchObject({
      status: "ok",
      detail: `no racksmith.yaml in ${dir}: using the defaults`,
    });
  });

  it("one failed finding per problem, each naming its key and its own fix", () => {
    const dir = tempProject('serverr: {}\nserver:\n  http: "nope"\n');
    const result = checkConfig({ cwd: dir });
    expect(result.loaded).toBeUndefined();
    expect(result.checks.map(({ status, detail, fix }) => ({ status, detail, fix }))).toEqual([
      {
        status: "fail",
        detail: expect.stringMatching(/^racksmith\.yaml: unknown key serverr \(did you mean server\?\)/),
        fix: "edit racksmith.yaml: rename serverr to server",
      },
      {
        status: "fail",
        detail: expect.stringMatching(/^racksmith\.yaml: server\.http: must look like "127\.0\.0\.1:8080"/),
        fix: expect.stringMatching(/^edit racksmith\.yaml: fix server\.http \(it must look like/),
      },
    ]);
  });

  it("a --config that does not exist", () => {
    const dir = tempProject(undefined);
    const [check] = checkConfig({ cwd: dir, configFile: "other.yaml" }).checks;
    expect(check).toMatchObject({
      status: "fail",
      detail: "other.yaml: file not found",
      fix: "create other.yaml, or pass --config with the right path",
    });
  });
});
