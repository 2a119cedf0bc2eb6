import { describe, expect, it } from "vitest";
import { checkBoundaries, checkedUnitOf } from "./boundaries.ts";
import {
  exportedSubpaths,
  splitBareSpecifier,
  subpathIsExported,
  type WorkspacePackage,
} from "./workspace.ts";

const core: WorkspacePackage = {
  name: "@racksmith/core",
  dir: "packages/core",
  exports: [".", "./redfish", "./engine", "./package.json"],
  declared: ["@racksmith/server", "undici"],
};
const server: WorkspacePackage = {
  name: "@racksmith/server",
  dir: "packages/server",
  exports: [".", "./testing", "./package.json"],
  declared: ["@racksmith/core", "kysely"],
};
const driver: WorkspacePackage = {
  name: "@racksmith/driver-acme",
  dir: "packages/driver-acme",
  exports: [".", "./testing/*"],
  declared: ["@racksmith/core"],
};
const workspace = new Map([core, server, driver].map((p) => [p.name, p] as const));
const byDir = new Map([core, server, driver].map((p) => [p.dir, p] as const));

const check = (file: string, specifier: string) => {
  const unit = checkedUnitOf(file, byDir);
  if (!unit) throw new Error(`${file} is not checked`);
  return checkBoundaries(file, [{ specifier, line: 7, typeOnly: false }], unit, workspace).map((v) => v.rule);
};

describe("checkBoundaries", () => {
  it.each([
    ["packages/server/src/lifecycle/feature.ts", "../explorer/index.js"],
    ["packages/server/test/support/site.ts", "../../src/service/index.js"],
    ["packages/server/src/index.ts", "@racksmith/core/engine"],
    ["packages/server/src/index.ts", "kysely"],
    ["packages/server/src/index.ts", "node:fs"],
    ["packages/core/src/state/engine.test.ts", "@racksmith/server/testing"],
    ["packages/core/test/engine/widget.ts", "@racksmith/core/engine"], // itself, by an export
    ["packages/driver-acme/src/index.ts", "@racksmith/core/package.json"],
    ["packages/core/src/index.ts", "@racksmith/driver-acme/testing/mockups"], // a `*` pattern (undeclared aside)
    ["bench/engine/run.ts", "./stats.js"],
    ["bench/engine/run.ts", "@racksmith/server"], // the root workspace declares nothing: no dependency rule
  ])("accepts %s importing %s", (file, specifier) => {
    expect(check(file, specifier).filter((rule) => rule !== "undeclared-dependency")).toEqual([]);
  });

  it.each([
    ["packages/server/src/db/database.ts", "../../../core/src/state/database.js", ["relative-escape"]],
    ["packages/cli/test/cli.test.ts", "../../testkit/src/index.js", ["relative-escape"]],
    ["bench/engine/run.ts", "../../packages/core/src/db/index.js", ["relative-escape"]],
    ["packages/server/src/index.ts", "@racksmith/core/server", ["unexported-subpath"]],
    ["packages/server/src/index.ts", "@racksmith/core/src/state/engine.js", ["unexported-subpath"]],
    ["packages/core/src/index.ts", "@racksmith/driver-acme", ["undeclared-dependency"]],
    ["packages/driver-acme/src/x.ts", "@racksmith/server", ["undeclared-dependency"]],
    [
      "packages/driver-acme/src/x.ts",
      "@racksmith/server/src/index.js",
      ["unexported-subpath", "undeclared-dependency"],
    ],
    ["packages/server/src/index.ts", "@racksmith/nothing", ["unknown-package"]],
  ])("rejects %s importing %s", (file, specifier, rules) => {
    expect(check(file, specifier)).toEqual(rules);
  });

  it("says which package a relative import reaches into, with the line", () => {
    const unit = { root: "packages/cli", package: undefined };
    const [found] = checkBoundaries(
      "packages/cli/src/a.ts",
      [{ specifier: "../../server/src/db/index.js", line: 3, typeOnly: false }],
      unit,
      workspace,
    );
    expect(found).toEqual({
      file: "packages/cli/src/a.ts",
      line: 3,
      specifier: "../../server/src/db/index.js",
      rule: "relative-escape",
      message: expect.stringContaining("@racksmith/server's files (packages/server/src/db/index.js)"),
    });
  });
});

describe("checkedUnitOf", () => {
  it.each([
    ["packages/core/src/index.ts", "packages/core"],
    ["packages/core/test/engine/widget.ts", "packages/core"],
    ["packages/core/bench/x.mjs", "packages/core"],
    ["bench/fleet/run.ts", "bench"],
    ["packages/core/vitest.config.ts", undefined],
    ["packages/server/scripts/generate-proto-types.mjs", undefined],
    ["packages/core/src/README.md", undefined],
    ["vitest.base.ts", undefined],
  ])("%s → %s", (path, root) => {
    expect(checkedUnitOf(path, byDir)?.root).toBe(root);
  });
});

describe("exports", () => {
  it.each([
    [undefined, undefined],
    ["./dist/index.js", ["."]],
    [{ types: "./dist/index.d.ts", default: "./dist/index.js" }, ["."]],
    [{ ".": "./a.js", "./x": "./x.js" }, [".", "./x"]],
  ])("exportedSubpaths(%j) = %j", (field, subpaths) => {
    expect(exportedSubpaths(field)).toEqual(subpaths);
  });

  it.each([
    [".", [".", "./x"], true],
    ["./x", [".", "./x"], true],
    ["./x/y", [".", "./x"], false],
    ["./testing/a", ["./testing/*"], true],
    ["./testing/a.js", ["./testing/*.js"], true],
    ["./testing", ["./testing/*"], false],
    ["./anything", undefined, true],
  ])("subpathIsExported(%s, %j) = %s", (subpath, exports, expected) => {
    expect(subpathIsExported(subpath, exports)).toBe(expected);
  });

  it.each([
    ["@racksmith/core", "@racksmith/core", "."],
    ["@racksmith/core/engine", "@racksmith/core", "./engine"],
    ["@racksmith/server/testing/x", "@racksmith/server", "./testing/x"],
    ["kysely/helpers/postgres", "kysely", "./helpers/postgres"],
  ])("splitBareSpecifier(%s)", (specifier, name, subpath) => {
    expect(splitBareSpecifier(specifier)).toEqual({ name, subpath });
  });
});
