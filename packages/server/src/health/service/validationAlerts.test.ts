import type { ValidationResult } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { validationReport } from "./validationAlerts.js";

const test = (name: string, passed: boolean, message = "") => ({ name, passed, message, durationMs: 1 });
const result = (passed: boolean, results: ValidationResult["results"]): ValidationResult => ({
  context: "discovery",
  passed,
  results,
  runBy: "burn-in",
});

describe("validationReport", () => {
  it.each<[string, ValidationResult, string[], [string, string][]]>([
    ["all passed", result(true, [test("cpu", true), test("mem", true)]), ["cpu", "mem"], []],
    [
      "one failed",
      result(false, [test("cpu", true), test("mem", false, "ECC errors")]),
      ["cpu"],
      [["FailedValidationTest", "mem"]],
    ],
    ["failed without a failed test", result(false, []), [], [["FailedValidationTestCompletion", "burn-in"]]],
  ])("%s", (_name, input, successes, alerts) => {
    const report = validationReport(input, new Date("2026-04-01T08:00:00.000Z"));
    expect(report.source).toBe("machine-validation");
    expect(report.observedAt).toBe("2026-04-01T08:00:00.000Z");
    expect(report.successes.map((s) => s.target)).toEqual(successes);
    expect(report.alerts.map((a) => [a.id, a.target])).toEqual(alerts);
    for (const alert of report.alerts) expect(alert.classifications).toEqual(["PreventAllocations"]);
  });

  it("names the context, the runner and the test's message", () => {
    const report = validationReport(result(false, [test("mem", false, "ECC errors")]), null);
    expect(report.alerts[0]?.message).toBe("discovery validation by burn-in: test mem failed: ECC errors");
    expect(report.observedAt).toBeUndefined();
  });
});
