import { describe, expect, it } from "vitest";
import { attributeDiffs, diffAttributes, jobStateOf, triState } from "./redfishStandard.js";

describe("RedfishStandard pure helpers", () => {
  it("diffs staged BIOS attributes against current ones", () => {
    expect(diffAttributes({ A: "x", B: 1, C: true }, { A: "x", B: 2, D: "new" })).toEqual({ B: 2, D: "new" });
    expect(attributeDiffs({ A: "x", B: 1, Z: "z" }, { A: "x", B: "1" })).toEqual([
      { key: "Z", expected: "z", actual: "(missing)" },
    ]);
  });

  it.each([
    [
      [
        ["a", true],
        ["b", true],
      ],
      "enabled",
    ],
    [
      [
        ["a", false],
        ["b", false],
      ],
      "disabled",
    ],
    [
      [
        ["a", true],
        ["b", false],
      ],
      "partial",
    ],
  ] as const)("%j is %s", (flags, state) => {
    expect(triState(flags).state).toBe(state);
  });

  it("says what is on and off", () => {
    expect(
      triState([
        ["system IPMI", true],
        ["manager serial console", false],
      ]).message,
    ).toBe("enabled: system IPMI; disabled: manager serial console");
  });

  it.each([
    ["Running", "running"],
    ["Completed", "completed"],
    ["CompletedWithErrors", "completedWithErrors"],
    ["Exception", "failed"],
    ["Scheduled", "scheduled"],
    ["Weird", "unknown"],
  ])("job state %s → %s", (raw, state) => {
    expect(jobStateOf(raw)).toBe(state);
  });
});
