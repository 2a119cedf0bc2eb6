import { describe, expect, it } from "vitest";
import { checkNodeVersion } from "./nodeCheck.js";

describe("checkNodeVersion", () => {
  it.each([
    ["20.19.0", ">=20.19", "ok"],
    ["22.3.0", ">=20.19", "ok"],
    ["20.11.1", ">=20.19", "fail"],
    ["18.20.0", ">=20.19", "fail"],
  ])("Node.js %s against %s: %s", (version, range, status) => {
    const check = checkNodeVersion(version, range);
    expect(check.status).toBe(status);
    if (status === "fail") expect(check.fix).toBe(`install a Node.js version within ${range}`);
  });

  it("reads the range from @racksmith/server's package.json", () => {
    expect(checkNodeVersion().detail).toMatch(/^Node\.js \d+\.\d+\.\d+ \(needs >=\d+/);
  });
});
