import { describe, expect, it } from "vitest";
import { diffHostPkeys } from "./diff.js";
import { boundInRanges, syncProblemsFrom } from "./problems.js";

const A = "b83fd20000000010";
const B = "b83fd20000000011";
const ranges = [{ start: 0x100, end: 0x200 }];

describe("diffHostPkeys", () => {
  it.each([
    {
      name: "missing desired pkeys",
      desired: { [A]: [0x101] },
      actual: { [A]: [0x7fff], [B]: [0x7fff] },
      expected: { missing: [{ guid: A, pkey: 0x101 }], unexpected: [], unknown: [] },
    },
    {
      name: "unexpected pkeys in our ranges, foreign ones only counted, the default one ignored",
      desired: {},
      actual: { [A]: [0x101, 0x300, 0x7fff], [B]: [0x1ff] },
      expected: {
        missing: [],
        unexpected: [
          { guid: A, pkey: 0x101 },
          { guid: B, pkey: 0x1ff },
        ],
        unknown: [{ guid: A, pkey: 0x300 }],
      },
    },
    {
      name: "the range end is exclusive",
      desired: {},
      actual: { [A]: [0x200] },
      expected: { missing: [], unexpected: [], unknown: [{ guid: A, pkey: 0x200 }] },
    },
    {
      name: "no decision for a GUID the fabric does not know",
      desired: { [A]: [0x101] },
      actual: {},
      expected: { missing: [], unexpected: [], unknown: [] },
    },
  ])("$name", ({ desired, actual, expected }) => {
    const want = new Map(Object.entries(desired).map(([guid, pkeys]) => [guid, new Set<number>(pkeys)]));
    const have = new Map(Object.entries(actual));
    expect(diffHostPkeys([A, B], want, (guid) => have.get(guid), ranges)).toEqual(expected);
  });
});

describe("observation → problems", () => {
  const observation = (pkeysA: number[], pkeysB: number[] = [0x7fff]) => ({
    observedAt: "2026-01-01T00:00:00Z",
    interfaces: [
      { guid: A, lid: 1, state: "active" as const, pkeys: pkeysA },
      { guid: B, lid: 2, state: "active" as const, pkeys: pkeysB },
    ],
  });
  const wantA = new Map([[A, new Set([0x101])]]);

  it.each([
    { name: "synced", obs: observation([0x101, 0x7fff]), expected: [] },
    { name: "not yet bound", obs: observation([0x7fff]), expected: [`GUID 0x${A} not yet in pkey 0x101`] },
    {
      name: "another port still in a tenant pkey",
      obs: observation([0x101], [0x102]),
      expected: [`GUID 0x${B} still in pkey 0x102`],
    },
    {
      name: "never observed",
      obs: undefined,
      expected: [`GUIDs 0x${A} not yet observed by the IB fabric monitor`],
    },
  ])("sync: $name", ({ obs, expected }) => {
    expect(syncProblemsFrom(obs, [A, B], wantA, ranges)).toEqual(expected);
  });

  it.each([
    {
      name: "bound in range",
      obs: observation([0x101, 0x300]),
      expected: [`GUID 0x${A} still in pkey 0x101`],
    },
    { name: "only foreign and default pkeys", obs: observation([0x300, 0x7fff]), expected: [] },
  ])("release: $name", ({ obs, expected }) => {
    expect(boundInRanges(obs, [A, B], ranges)).toEqual(expected);
  });
});
