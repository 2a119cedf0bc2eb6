import { describe, expect, it } from "vitest";
import { bomStepOf, bomWaitReason } from "./bomValidating.js";

describe("BOM verdicts as states", () => {
  it.each([
    [{ kind: "passed" as const, skuId: "s" }, null, ""],
    [{ kind: "passed" as const, skuId: null }, null, ""],
    [
      { kind: "waitingForSkuAssignment" as const },
      { step: "waitingForSkuAssignment" },
      "no SKU is assigned and no stored SKU matches: assign one (racksmith sku assign <sku> h-1)",
    ],
    [
      { kind: "skuMissing" as const, skuId: "s.1" },
      { step: "skuMissing", skuId: "s.1" },
      "SKU s.1 does not exist: create it (racksmith sku create) or assign another",
    ],
    [
      {
        kind: "skuVerificationFailed" as const,
        skuId: "s.1",
        mismatches: [
          { component: "gpu", message: "gpu H100: expected 4, found 3" },
          { component: "disk", message: "disk N: expected 2, found 1" },
        ],
      },
      {
        step: "skuVerificationFailed",
        skuId: "s.1",
        mismatches: [
          { component: "gpu", message: "gpu H100: expected 4, found 3" },
          { component: "disk", message: "disk N: expected 2, found 1" },
        ],
      },
      "the host does not match SKU s.1: gpu H100: expected 4, found 3; disk N: expected 2, found 1 (fix it, then racksmith sku verify h-1)",
    ],
  ])("%j → %j", (verdict, step, reason) => {
    const next = bomStepOf(verdict);
    expect(next).toEqual(step);
    if (next) expect(bomWaitReason(next, "h-1")).toContain(reason);
  });
});
