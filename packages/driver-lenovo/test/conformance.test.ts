import { presentSharedVendors, runConformance, sharedMockup } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { lenovoDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { LENOVO_MOCKUPS } from "./support/lenovoMockups.js";

const profile = conformance.lenovo;
const shared = presentSharedVendors("the conformance suite on the real Lenovo capture", ["lenovo"]);

async function conform(mockup: string) {
  const report = await runConformance({ ...profile, driver: lenovoDriver, mockup });
  const failures = report.results.filter((r) => r.status !== "pass");
  return { report, failures };
}

describe("conformance suite", () => {
  it.each(Object.entries(LENOVO_MOCKUPS))(
    "passes every declared capability on the %s mockup",
    async (_, mockup) => {
      const { report, failures } = await conform(mockup);
      // Every declared capability passes; the one undeclared (BlueField-only) answers not_supported honestly.
      expect(failures.map((f) => `${f.capability}: ${f.status}`)).toEqual(["dpu: not_supported"]);
      expect(report.passed).toBe(true);
    },
  );

  it.skipIf(shared.length === 0)(
    "passes on the real SR670 V2 capture in ../shared/mockups/lenovo",
    async () => {
      const { report, failures } = await conform(sharedMockup("lenovo") ?? "");
      expect(failures.map((f) => `${f.capability}: ${f.status}`)).toEqual(["dpu: not_supported"]);
      expect(report.passed).toBe(true);
    },
  );
});
