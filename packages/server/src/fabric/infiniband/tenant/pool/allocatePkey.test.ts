import { describe, expect, it } from "vitest";
import { allocatePkey } from "./allocatePkey.js";

const ranges = [
  { start: 0x100, end: 0x103 },
  { start: 0x7ffe, end: 0x8000 },
];

describe("allocatePkey", () => {
  it.each([
    { name: "the lowest free pkey", used: [], requested: undefined, expected: 0x100 },
    { name: "skips used pkeys", used: [0x100, 0x101], requested: undefined, expected: 0x102 },
    {
      name: "the end is exclusive: moves to the next range",
      used: [0x100, 0x101, 0x102],
      requested: undefined,
      expected: 0x7ffe,
    },
    { name: "a requested free pkey", used: [0x100], requested: 0x102, expected: 0x102 },
  ])("$name", ({ used, requested, expected }) => {
    expect(allocatePkey(ranges, new Set(used), requested)).toBe(expected);
  });

  it.each([
    {
      name: "never the default partition",
      used: [0x100, 0x101, 0x102, 0x7ffe],
      requested: undefined,
      code: "pkey_pool_exhausted",
    },
    { name: "a requested pkey at a range's end", used: [], requested: 0x103, code: "invalid_argument" },
    { name: "a requested default pkey", used: [], requested: 0x7fff, code: "invalid_argument" },
    { name: "a requested pkey in use", used: [0x101], requested: 0x101, code: "pkey_taken" },
  ])("refuses $name", ({ used, requested, code }) => {
    expect(() => allocatePkey(ranges, new Set(used), requested)).toThrow(expect.objectContaining({ code }));
  });

  it("names the ranges when nothing is configured", () => {
    expect(() => allocatePkey([], new Set())).toThrow(/none configured/);
  });
});
