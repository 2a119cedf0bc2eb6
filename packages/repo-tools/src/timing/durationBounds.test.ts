import { describe, expect, it } from "vitest";
import { findDurationBounds, isTestSource, looksLikeDuration } from "./durationBounds.ts";

describe("findDurationBounds", () => {
  // The first rows are the assertions that made CI fail on a busy machine.
  it.each([
    ["expect(runMs).toBeLessThan(3_500);", "runMs"],
    ["expect(result.latencyMs).toBeLessThan(800);", "result.latencyMs"],
    ["expect(slowEndpoint.latencyMs).toBeLessThan(3_000);", "slowEndpoint.latencyMs"],
    ["expect(performance.now() - started).toBeLessThan(1_000);", "performance.now() - started"],
    ["expect(Date.now() - changed).toBeLessThan(3_000 + 500 + 4_000);", "Date.now() - changed"],
    ["expect(elapsed).toBeLessThanOrEqual(10);", "elapsed"],
    ["expect(stats.durationSeconds).toBeLessThan(2);", "stats.durationSeconds"],
    ["expect(stopMs, 'stop').not.toBeLessThan(2);", "stopMs"],
    ["expect.soft(result.latencyMs).toBeLessThan(5);", "result.latencyMs"],
    ["expect(end - start).toBeLessThan(5);", "end - start"],
    [
      'expect((starts.get("quick") ?? Number.NaN) - created).toBeLessThan(1_000);',
      '(starts.get("quick") ?? Number.NaN) - created',
    ],
    ["expect(now - stopping).toBeLessThan(2_000);", "now - stopping"],
    ["expect(\n  took.ms,\n)\n  .toBeLessThan(\n 5);", "took.ms"],
  ])("rejects %s", (source, subject) => {
    expect(findDurationBounds("x.test.ts", source)).toEqual([
      expect.objectContaining({ file: "x.test.ts", subject }),
    ]);
  });

  it.each([
    // Lower bounds on durations, and upper bounds on things that are not durations.
    "expect(result.latencyMs).toBeGreaterThanOrEqual(490);",
    'expect(score("redfish-standard")).toBeLessThan(score("dell"));',
    "expect(answer.status).toBeLessThan(500);",
    'expect(order.indexOf("a")).toBeLessThan(order.indexOf("b"));',
    "expect(items.length).toBeLessThan(3);",
    "expect(timeoutMs).toBe(500);",
    "const latencyMs = 5; latencyMs < 3;",
  ])("accepts %s", (source) => {
    expect(findDurationBounds("x.test.ts", source)).toEqual([]);
  });

  it("reports the line and the matcher of each finding", () => {
    const source = [
      "it('x', () => {",
      "  expect(1).toBe(1);",
      "  expect(waitMs).toBeLessThanOrEqual(3);",
      "});",
    ].join("\n");
    expect(findDurationBounds("a/b.test.ts", source)).toEqual([
      { file: "a/b.test.ts", line: 3, matcher: "toBeLessThanOrEqual", subject: "waitMs" },
    ]);
  });
});

describe("looksLikeDuration", () => {
  it.each([
    ["requestTimeoutMs", true],
    ["run.deadline - run.start", true],
    ["pollsMade", false],
    ["terms", false],
    ["transitions", false],
  ])("%s → %s", (subject, expected) => {
    expect(looksLikeDuration(subject)).toBe(expected);
  });
});

describe("isTestSource", () => {
  it.each([
    ["packages/core/src/state/engine.test.ts", true],
    ["packages/e2e/test/support/service.ts", true],
    ["packages/core/src/lifecycle/agents/__fixtures__/site.ts", true],
    ["packages/simulator/src/agents/__support__/simulation.ts", true],
    ["packages/core/src/state/engine.ts", false],
    ["bench/engine/run.ts", false],
    ["packages/core/node_modules/x/test/a.ts", false],
    ["packages/core/dist/test/a.d.ts", false],
  ])("%s → %s", (path, expected) => {
    expect(isTestSource(path)).toBe(expected);
  });
});
