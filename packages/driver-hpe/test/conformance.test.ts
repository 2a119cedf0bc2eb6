import { presentSharedVendors, runConformance, sharedMockup } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { hpeDriverDefinition } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { MOCKUPS } from "./support/mockups.js";

const profile = conformance.hpe;
const shared = presentSharedVendors("the conformance suite on the real HPE capture", ["hpe"]);
const sharedHpe = sharedMockup("hpe");

async function conformanceOn(mockup: string) {
  const report = await runConformance({ ...profile, driver: hpeDriverDefinition, mockup });
  const failures = report.results.filter((result) => result.status === "fail");
  // Declared but answered not_supported: only what this hardware really lacks.
  const unsupported = report.results.filter((r) => r.declared && r.status === "not_supported");
  return { report, failures, unsupported: unsupported.map((r) => `${r.capability}: ${r.message ?? ""}`) };
}

describe("the conformance suite", () => {
  it.each(Object.entries(MOCKUPS))(
    "passes on the %s mockup with every declared capability",
    async (_, mockup) => {
      const { report, failures, unsupported } = await conformanceOn(mockup);
      expect(failures.map((f) => `${f.capability}: ${f.message ?? ""}`)).toEqual([]);
      // iLO has no Chassis Sensors collection (Thermal and Power carry the readings).
      expect(unsupported).toEqual([expect.stringMatching(/^sensors: .*no chassis has a Sensors collection/)]);
      expect(report.passed).toBe(true);
      expect(report.results.find((r) => r.capability === "dpu")).toMatchObject({
        declared: false,
        status: "not_supported",
      });
    },
  );

  it.skipIf(!sharedHpe)("passes on the real HPE capture (../shared/mockups/hpe)", async () => {
    const { report, failures, unsupported } = await conformanceOn(sharedHpe ?? "");
    expect(failures.map((f) => `${f.capability}: ${f.message ?? ""}`)).toEqual([]);
    expect(unsupported).toEqual([expect.stringMatching(/^sensors: /)]);
    expect(report.passed).toBe(true);
    expect(shared).toEqual(["hpe"]);
  });
});
