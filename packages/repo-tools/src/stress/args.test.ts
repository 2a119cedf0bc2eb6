import { describe, expect, it } from "vitest";
import { parseStressArgs } from "./args.ts";

describe("parseStressArgs", () => {
  it.each([
    [[], { runs: 3, filters: [], hog: true }],
    [["--runs", "5"], { runs: 5, filters: [], hog: true }],
    [
      ["--filter", "@racksmith/core", "--filter", "@racksmith/cli", "--no-hog"],
      { runs: 3, filters: ["@racksmith/core", "@racksmith/cli"], hog: false },
    ],
  ])("%j → %j", (argv, expected) => {
    expect(parseStressArgs(argv)).toEqual(expected);
  });

  it.each([
    [["--runs"], "--runs needs a value"],
    [["--runs", "0"], '--runs must be a whole number ≥ 1, not "0"'],
    [["--runs", "two"], '--runs must be a whole number ≥ 1, not "two"'],
    [["--fast"], 'unknown option "--fast"'],
  ])("refuses %j", (argv, message) => {
    expect(() => parseStressArgs(argv)).toThrow(message);
  });
});
