import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/index.js";
import { parseHealthReport } from "./schema.js";

describe("parseHealthReport", () => {
  it("normalises a valid report: lists default to empty, UTC ISO timestamps, sorted classifications", () => {
    expect(
      parseHealthReport(
        {
          source: "sre",
          observedAt: "2024-06-01T14:00:00+02:00",
          alerts: [
            {
              id: "Maintenance",
              message: "RMA",
              inAlertSince: "2024-06-01T12:00:00Z",
              classifications: ["SuppressExternalAlerting", "PreventAllocations", "PreventAllocations"],
            },
          ],
        },
        "maintenance.json",
      ),
    ).toEqual({
      source: "sre",
      observedAt: "2024-06-01T12:00:00.000Z",
      successes: [],
      alerts: [
        {
          id: "Maintenance",
          message: "RMA",
          inAlertSince: "2024-06-01T12:00:00.000Z",
          classifications: ["PreventAllocations", "SuppressExternalAlerting"],
        },
      ],
    });
  });

  it.each<[string, unknown, RegExp]>([
    ["not an object", "healthy", /\(top level\): must be a mapping/],
    ["no source", { alerts: [] }, /missing required key source/],
    ["an empty source", { source: "" }, /source: must NOT have fewer than 1 characters/],
    [
      "an empty probe id",
      { source: "s", alerts: [{ id: "", message: "m" }] },
      /alerts\[0\]\.id: must NOT have fewer/,
    ],
    [
      "an alert without message",
      { source: "s", alerts: [{ id: "X" }] },
      /alerts\[0\]: missing required key message/,
    ],
    [
      "a typo",
      { source: "s", alerts: [{ id: "X", message: "m", clasifications: [] }] },
      /unknown key alerts\[0\]\.clasifications \(did you mean classifications\?\)/,
    ],
    [
      "a bad success",
      { source: "s", successes: [{ id: "X", target: 3 }] },
      /successes\[0\]\.target: must be a string/,
    ],
    [
      "an empty classification",
      { source: "s", alerts: [{ id: "X", message: "m", classifications: [""] }] },
      /alerts\[0\]\.classifications\[0\]/,
    ],
    [
      "a date without time",
      { source: "s", observedAt: "2024-06-01" },
      /observedAt: "2024-06-01" is not an ISO 8601 date-time/,
    ],
    [
      "a time without offset",
      { source: "s", alerts: [{ id: "X", message: "m", inAlertSince: "2024-06-01T12:00:00" }] },
      /alerts\[0\]\.inAlertSince: .* is not an ISO 8601/,
    ],
    [
      "an impossible date",
      { source: "s", observedAt: "2024-13-45T99:00:00Z" },
      /observedAt: .* is not an ISO 8601/,
    ],
  ])("refuses %s, naming where and the field", (_, json, pattern) => {
    let error: unknown;
    try {
      parseHealthReport(json, "overrides/maintenance.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/^overrides\/maintenance\.json: invalid health report: /);
    expect((error as Error).message).toMatch(pattern);
  });
});
