import { describe, expect, it } from "vitest";
import {
  CALM_SAMPLES_TO_RECOVER,
  type LoadState,
  nextLoadState,
  OverloadHistory,
} from "./overloadHistory.js";

const limits = { databaseLatencyMs: 2_000, eventLoopDelayMs: 1_000 };
const calm = { databaseLatencyMs: 5, eventLoopDelayMs: 3 };
const idle: LoadState = { overloaded: null, calm: 0 };
const busy: LoadState = { overloaded: "database round trip 2500 ms > 2000 ms", calm: 0 };

describe("nextLoadState", () => {
  it.each([
    ["calm stays calm", idle, calm, limits, idle],
    [
      "a slow database overloads at once",
      idle,
      { ...calm, databaseLatencyMs: 2_500 },
      limits,
      { overloaded: "database round trip 2500 ms > 2000 ms", calm: 0 },
    ],
    [
      "a late event loop overloads at once",
      idle,
      { ...calm, eventLoopDelayMs: 1_200 },
      limits,
      { overloaded: "event loop delay 1200 ms > 1000 ms", calm: 0 },
    ],
    [
      "both are named",
      idle,
      { databaseLatencyMs: 2_500, eventLoopDelayMs: 1_200 },
      limits,
      { overloaded: "database round trip 2500 ms > 2000 ms, event loop delay 1200 ms > 1000 ms", calm: 0 },
    ],
    ["one calm sample is not enough to recover", busy, calm, limits, { ...busy, calm: 1 }],
    [
      "recovered after enough calm samples",
      { ...busy, calm: CALM_SAMPLES_TO_RECOVER - 1 },
      calm,
      limits,
      idle,
    ],
    [
      "a busy sample resets the calm count",
      { ...busy, calm: 2 },
      { ...calm, databaseLatencyMs: 3_000 },
      limits,
      { overloaded: "database round trip 3000 ms > 2000 ms", calm: 0 },
    ],
    [
      "0 turns a check off",
      idle,
      { databaseLatencyMs: 9_000, eventLoopDelayMs: 9_000 },
      { databaseLatencyMs: 0, eventLoopDelayMs: 0 },
      idle,
    ],
  ] as const)("%s", (_name, state, sample, thresholds, expected) => {
    expect(nextLoadState(state, sample, thresholds)).toEqual(expected);
  });
});

describe("OverloadHistory", () => {
  const t = (s: number) => new Date(s * 1_000);

  it("sums the overloaded time inside a span, an open interval up to its end", () => {
    const history = new OverloadHistory();
    history.set(null, 0);
    history.set("busy", 10_000);
    history.set("busy", 15_000);
    history.set(null, 20_000);
    history.set("busy again", 40_000);
    expect(history.current).toBe("busy again");
    expect(history.pausedMs(t(0), t(100))).toBe(10_000 + 60_000);
    expect(history.pausedMs(t(12), t(45))).toBe(8_000 + 5_000);
    expect(history.pausedMs(t(21), t(39))).toBe(0);
  });
});
