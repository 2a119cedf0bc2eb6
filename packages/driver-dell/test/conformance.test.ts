import { type ConformanceReport, conformanceStatuses, runConformance } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { dellDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { cli } from "./support/cli.js";
import { MOCKUP_FOLDERS, MOCKUP_MODELS, type MockupModel, mockupPath } from "./support/mockups.js";

// What each bundled mockup must report beyond "pass": the DPU operations belong to the BlueField driver, and
// the XE9680 cannot PXE boot, so boot-once PXE is refused there instead of pretended.
const NOT_SUPPORTED: Record<MockupModel, string[]> = {
  "PowerEdge R750": ["dpu"],
  "PowerEdge XE9680": ["bootOnce", "dpu"],
};

describe.each(MOCKUP_MODELS)("the conformance suite on the %s mockup", (model) => {
  it("passes every declared capability and reports the rest as not supported", async () => {
    const report = await runConformance({
      ...conformance.dell,
      driver: dellDriver,
      mockup: mockupPath(model),
    });
    expect(report.results.filter((r) => r.status === "fail")).toEqual([]);
    const statuses = conformanceStatuses(report);
    expect(Object.keys(statuses).filter((c) => statuses[c] === "not_supported")).toEqual(
      NOT_SUPPORTED[model],
    );
    expect(report.results.find((r) => r.capability === "machineSetup")?.checks).toContain(
      "machine setup status reports done",
    );
    expect(report.passed).toBe(true);
  });

  it("passes through `racksmith driver test` run from the package folder", async () => {
    const run = await cli([
      "driver",
      "test",
      "@racksmith/driver-dell",
      "--mockup",
      MOCKUP_FOLDERS[model],
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ConformanceReport;
    expect(report).toMatchObject({ driver: "dell", passed: true });
    expect(conformanceStatuses(report).machineSetup).toBe("pass");
  });
});
