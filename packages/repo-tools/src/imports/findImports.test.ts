import { describe, expect, it } from "vitest";
import { findImports } from "./findImports.ts";

describe("findImports", () => {
  it.each([
    ['import { a } from "./a.js";', "./a.js", false],
    ['import type { A } from "@racksmith/core";', "@racksmith/core", true],
    ['import "./tables.js";', "./tables.js", false],
    ['import * as ns from "../x/index.js";', "../x/index.js", false],
    ['export { b } from "./b.js";', "./b.js", false],
    ['export type { B } from "./b.js";', "./b.js", true],
    ['export * from "./c.js";', "./c.js", false],
    ['const m = await import("@racksmith/server/testing");', "@racksmith/server/testing", false],
    ['let t: import("../other/index.js").T;', "../other/index.js", true],
    ["import x = require('./legacy.js');", "./legacy.js", false],
  ])("finds %s", (source, specifier, typeOnly) => {
    expect(findImports("a.ts", source)).toEqual([{ specifier, line: 1, typeOnly }]);
  });

  it.each([
    "const m = await import(name);",
    'const text = "import { a } from \\"./a.js\\"";',
    '// import { a } from "./a.js";',
    'readFileSync(new URL("../../README.md", import.meta.url));',
  ])("ignores %s", (source) => {
    expect(findImports("a.ts", source)).toEqual([]);
  });

  it("reports each specifier's line, in source order", () => {
    const source = ['import { a } from "./a.js";', "", "export {", "  b,", '} from "./b.js";'].join("\n");
    expect(findImports("x.ts", source).map((ref) => [ref.specifier, ref.line])).toEqual([
      ["./a.js", 1],
      ["./b.js", 5],
    ]);
  });
});
