import { describe, expect, it } from "vitest";
import { unstableTests } from "./flaky.ts";
import { allPassed, formatSummary } from "./summary.ts";
import { type PackageResult, readVitestReport, type VitestJsonReport } from "./vitestReport.ts";

const report: VitestJsonReport = {
  startTime: 1_000,
  success: false,
  testResults: [
    {
      name: "/repo/packages/core/src/a.test.ts",
      status: "failed",
      message: "",
      startTime: 1_000,
      endTime: 4_000,
      assertionResults: [
        { fullName: "a works", status: "passed", failureMessages: [] },
        {
          fullName: "a fails",
          status: "failed",
          failureMessages: ["\nAssertionError: expected 1 to be 2\n  at …"],
        },
        { fullName: "a later", status: "skipped", failureMessages: null },
        { fullName: "a todo", status: "todo", failureMessages: null },
      ],
    },
    {
      name: "/repo/packages/core/test/broken.test.ts",
      status: "failed",
      message: "SyntaxError: Unexpected token\nmore",
      startTime: 1_000,
      endTime: 13_500,
      assertionResults: [],
    },
  ],
};

describe("readVitestReport", () => {
  it("counts each test, names it by file and full name, and counts a file that did not load as a failure", () => {
    expect(readVitestReport("@racksmith/core", "/repo/packages/core", report)).toEqual({
      name: "@racksmith/core",
      passed: 1,
      failed: 2,
      skipped: 2,
      seconds: 12.5,
      tests: [
        { id: "src/a.test.ts › a works", outcome: "passed" },
        { id: "src/a.test.ts › a fails", outcome: "failed", failure: "AssertionError: expected 1 to be 2" },
        { id: "src/a.test.ts › a later", outcome: "skipped" },
        { id: "src/a.test.ts › a todo", outcome: "skipped" },
        { id: "test/broken.test.ts › (file)", outcome: "failed", failure: "SyntaxError: Unexpected token" },
      ],
    });
  });
});

const pkg = (name: string, outcomes: Record<string, "passed" | "failed" | "skipped">): PackageResult => {
  const tests = Object.entries(outcomes).map(([id, outcome]) => ({ id, outcome }));
  const count = (o: string) => tests.filter((t) => t.outcome === o).length;
  return {
    name,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    seconds: 3,
    tests,
  };
};

describe("formatSummary", () => {
  it("prints a line per package, the failed tests, and the totals last in the form CI reads", () => {
    const lines = formatSummary([
      pkg("@racksmith/core", { a: "passed", b: "failed", c: "skipped" }),
      pkg("@racksmith/cli", { d: "passed" }),
      { name: "@racksmith/e2e", missing: true },
    ]);
    expect(lines).toEqual([
      "@racksmith/core  FAILED 1 passed, 1 failed, 1 skipped  (3 s)",
      "@racksmith/cli   ok     1 passed, 0 failed, 0 skipped  (3 s)",
      "@racksmith/e2e   no report: its test task did not finish",
      "",
      "failed tests:",
      "  ✗ @racksmith/core: b",
      "1 package(s) left no report",
      "Tests: 2 passed, 2 failed, 1 skipped",
    ]);
  });

  it.each([
    [[pkg("p", { a: "passed", b: "skipped" })], true],
    [[pkg("p", { a: "passed" }), pkg("q", { b: "failed" })], false],
    [[pkg("p", { a: "passed" }), { name: "q", missing: true as const }], false],
  ])("allPassed(%#) → %s", (lines, expected) => {
    expect(allPassed(lines)).toBe(expected);
  });
});

describe("unstableTests", () => {
  it("lists each test that failed in any run with its failure count; flaky when it also passed", () => {
    const runs = [
      [pkg("p", { a: "passed", b: "failed", c: "failed", d: "skipped" })],
      [pkg("p", { a: "passed", b: "passed", c: "failed", d: "skipped" })],
      [pkg("p", { a: "passed", b: "failed", c: "failed", d: "failed" })],
    ];
    expect(unstableTests(runs)).toEqual([
      { package: "p", id: "c", failures: 3, runs: 3, flaky: false },
      { package: "p", id: "b", failures: 2, runs: 3, flaky: true },
      { package: "p", id: "d", failures: 1, runs: 1, flaky: false },
    ]);
  });

  it("is empty when every run passed", () => {
    expect(unstableTests([[pkg("p", { a: "passed" })], [pkg("p", { a: "passed" })]])).toEqual([]);
  });
});
