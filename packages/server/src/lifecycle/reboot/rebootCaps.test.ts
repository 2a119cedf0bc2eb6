import { describe, expect, it } from "vitest";
import { pruneRebootTimes, type RebootCaps, rebootCapHolds } from "./rebootCaps.js";

const S = 1_000;
const now = 1_000_000;
const caps: RebootCaps = { maxRebootsPerMinute: 3, maxRebootsInFlight: 2, rebootSettleMs: 10 * S };
const ago = (...seconds: number[]) => seconds.map((s) => now - s * S).sort((a, b) => a - b);

describe("rebootCapHolds", () => {
  it.each([
    ["nothing recent", [], caps, null],
    ["one in flight, room for another", ago(5), caps, null],
    [
      "two in flight: the in-flight cap holds",
      ago(5, 2),
      caps,
      "site-wide cap of 2 reboots in flight reached",
    ],
    ["settled ones leave the in-flight window", ago(30, 20), caps, null],
    [
      "three this minute: the per-minute cap holds",
      ago(50, 40, 30),
      caps,
      "site-wide cap of 3 reboots per minute reached",
    ],
    ["older than a minute do not count", ago(90, 70, 30), caps, null],
    [
      "0 turns a cap off",
      ago(5, 4, 3, 2, 1),
      { ...caps, maxRebootsPerMinute: 0, maxRebootsInFlight: 0 },
      null,
    ],
  ] as const)("%s", (_name, recent, limits, expected) => {
    expect(rebootCapHolds(recent, now, limits)).toBe(expected);
  });
});

describe("pruneRebootTimes", () => {
  it("keeps what the longer window (a minute or the settle time) still sees", () => {
    expect(pruneRebootTimes(ago(90, 59, 1), now, caps)).toEqual(ago(59, 1));
    expect(pruneRebootTimes(ago(90, 59, 1), now, { ...caps, rebootSettleMs: 120 * S })).toEqual(
      ago(90, 59, 1),
    );
  });
});
