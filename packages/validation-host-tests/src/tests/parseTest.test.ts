import { describe, expect, it } from "vitest";
import { parseTest } from "./parseTest.js";

const valid = { id: "site_FanCheck", command: "/opt/site/fancheck", timeoutMs: 60_000 };

describe("parseTest", () => {
  it("fills the defaults: named by its id, no args, enabled, every context, unverified at v1", () => {
    expect(parseTest(valid)).toEqual({
      id: "site_FanCheck",
      name: "site_FanCheck",
      command: "/opt/site/fancheck",
      args: [],
      timeoutMs: 60_000,
      version: "v1",
      enabled: true,
      verified: false,
      platforms: [],
      skus: [],
      contexts: ["discovery", "cleanup", "onDemand"],
      description: "",
    });
  });

  it("keeps what it is given", () => {
    const test = parseTest({
      ...valid,
      name: "Fans",
      args: ["--all", ""],
      enabled: false,
      platforms: ["PowerEdge R750"],
      skus: ["dell.r750.gpu.1"],
      contexts: ["cleanup", "cleanup"],
      description: "every fan spins",
    });
    expect(test).toMatchObject({ name: "Fans", args: ["--all", ""], enabled: false, contexts: ["cleanup"] });
  });

  it.each<[string, unknown, RegExp]>([
    ["not an object", [], /^the test must be an object/],
    ["no id", { ...valid, id: undefined }, /^id must be a string/],
    ["an id with a space", { ...valid, id: "fan check" }, /^id must be 1 to 128 letters/],
    ["no command", { ...valid, command: "" }, /^command must not be empty/],
    ["a NUL in an argument", { ...valid, args: ["a\u0000b"] }, /^args\[0\] must not contain NUL/],
    [
      "a timeout under a second",
      { ...valid, timeoutMs: 10 },
      /^timeoutMs must be a whole number of milliseconds from 1000/,
    ],
    ["a timeout as text", { ...valid, timeoutMs: "60s" }, /^timeoutMs must be/],
    ["an unknown context", { ...valid, contexts: ["nightly"] }, /^contexts has "nightly"/],
    ["enabled as text", { ...valid, enabled: "yes" }, /^enabled must be true or false/],
    ["a field the service sets", { ...valid, verified: true }, /^verified is not a test field/],
    [
      "too many args",
      { ...valid, args: Array.from({ length: 65 }, () => "x") },
      /^args must have at most 64 items/,
    ],
  ])("refuses %s, naming the field", (_name, value, message) => {
    expect(() => parseTest(value)).toThrow(message);
  });
});
