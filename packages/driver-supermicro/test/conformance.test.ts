import {
  conformanceFailures,
  conformanceStatuses,
  expectedConformanceStatuses,
  presentSharedVendors,
  runConformance,
  sharedMockup,
} from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { supermicroDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { type BundledModel, MODELS, mockupDir } from "./support/mockups.js";

/** Runs the shared suite with this package's profile; returns capability → status. */
async function conformanceOn(mockup: string): Promise<Record<string, string>> {
  const report = await runConformance({ ...conformance.supermicro, driver: supermicroDriver, mockup });
  expect(conformanceFailures(report)).toEqual([]);
  expect(report.passed).toBe(true);
  return conformanceStatuses(report);
}

/** Every check passes except the DPU operations and, where the firmware lacks the OEM action, AC cycle. */
const NOT_SUPPORTED: Record<BundledModel, readonly string[]> = {
  // Like the real X13 capture, this firmware does not offer OemSystemExtensions.Reset.
  "sys-821ge-tnhr": ["acPowerCycle", "dpu"],
  "sys-121h-tnr": ["dpu"],
};

describe.each(MODELS)("conformance suite on the bundled %s mockup", (model) => {
  it("passes every declared capability and refuses the rest", async () => {
    expect(await conformanceOn(mockupDir(model))).toEqual(expectedConformanceStatuses(NOT_SUPPORTED[model]));
  });
});

const captured = presentSharedVendors("the conformance suite on the real Supermicro capture", ["supermicro"]);

describe("conformance suite on the real Supermicro capture", () => {
  it.skipIf(captured.length === 0)("passes every declared capability and refuses the rest", async () => {
    expect(await conformanceOn(sharedMockup("supermicro") ?? "")).toEqual(
      expectedConformanceStatuses(["acPowerCycle", "dpu"]),
    );
  });
});
