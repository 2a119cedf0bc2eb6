import { describe, expect, it } from "vitest";
import type { BomVerdict } from "../lifecycle/index.js";
import { skuHealthReport } from "./skuHealth.js";

const NOW = new Date("2026-05-01T10:00:00.000Z");

describe("skuHealthReport", () => {
  it.each<[BomVerdict, { target: string; message: string } | null, string]>([
    [{ kind: "passed", skuId: "s.1" }, null, "s.1"],
    [{ kind: "passed", skuId: null }, null, "unassigned"],
    [
      { kind: "waitingForSkuAssignment" },
      { target: "unassigned", message: "no SKU is assigned to the host and no stored SKU matches it" },
      "",
    ],
    [
      { kind: "skuMissing", skuId: "s.2" },
      { target: "s.2", message: "the host's SKU s.2 does not exist" },
      "",
    ],
    [
      {
        kind: "skuVerificationFailed",
        skuId: "s.3",
        mismatches: [
          { component: "gpu", message: "gpu X: expected 4, found 3" },
          { component: "chassis", message: "chassis model: expected A, found B" },
        ],
      },
      {
        target: "s.3",
        message:
          "the host does not match SKU s.3: gpu X: expected 4, found 3; chassis model: expected A, found B",
      },
      "",
    ],
  ])("%j", (verdict, alert, successTarget) => {
    expect(skuHealthReport(verdict, NOW)).toEqual({
      source: "sku-validation",
      observedAt: NOW.toISOString(),
      successes: alert ? [] : [{ id: "SkuValidation", target: successTarget }],
      alerts: alert ? [{ id: "SkuValidation", ...alert, classifications: ["PreventAllocations"] }] : [],
    });
  });
});
