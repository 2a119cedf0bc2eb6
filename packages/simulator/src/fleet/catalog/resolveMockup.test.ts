import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetMockupError } from "../errors.js";
import { resolveMockup } from "./resolveMockup.js";

let base: string;

/** A driver package in `base/node_modules` exporting `./testing` as `dist/testing.js`, with one mockup. */
function fakeDriver(name: string, options: { built: boolean }): void {
  const dir = join(base, "node_modules", "@example", name);
  mkdirSync(join(dir, "mockups", "m1"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `@example/${name}`, exports: { "./testing": { import: "./dist/testing.js" } } }),
  );
  if (options.built) {
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "dist", "testing.js"), "export {};\n");
  }
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "resolve-mockup-"));
  fakeDriver("built", { built: true });
  fakeDriver("unbuilt", { built: false });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("resolveMockup", () => {
  it("returns the package's ./testing entry with the mockup", () => {
    const found = resolveMockup({ vendor: "x", package: "@example/built", model: "m1" }, base, "bmcs[0]");
    expect(found.dir).toBe(join(base, "node_modules", "@example", "built", "mockups", "m1"));
    expect(found.testingEntry).toBe(join(base, "node_modules", "@example", "built", "dist", "testing.js"));
  });

  it("refuses a package whose ./testing entry is not built, naming the field and the missing file", () => {
    const resolving = () =>
      resolveMockup({ vendor: "x", package: "@example/unbuilt", model: "m1" }, base, "bmcs[1]");
    expect(resolving).toThrow(FleetMockupError);
    expect(resolving).toThrow(/bmcs\[1\]\.package.*dist\/testing\.js.*npm run build/s);
  });
});
