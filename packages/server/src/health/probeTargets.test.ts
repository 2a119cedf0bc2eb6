import { describe, expect, it } from "vitest";
import { probeTargetsOf } from "./probeTargets.js";

describe("probeTargetsOf", () => {
  it.each([
    [["bmc"], "host", ["bmc"]],
    [["bmc"], "dpu", ["bmc"]],
    [["host"], "dpu", []],
    [["host", "dpu"], "host", ["host"]],
    [["dpu", "bmc"], "dpu", ["dpu", "bmc"]],
  ] as const)("%j on a %s → %j", (targets, kind, expected) => {
    expect(probeTargetsOf(targets, kind)).toEqual(expected);
  });
});
