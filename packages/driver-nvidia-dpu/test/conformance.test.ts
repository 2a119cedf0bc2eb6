import { conformanceFailures, conformanceStatuses, runConformance } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { nvidiaDpuDriver } from "../src/index.js";
import { conformance } from "../src/testing/index.js";
import { EXPECTED_STATUSES } from "./support/conformanceExpectations.js";
import { BUNDLED_MODELS, mockupDir } from "./support/paths.js";

describe.each(BUNDLED_MODELS)("conformance on the bundled %s mockup", (model) => {
  it("passes; what the DPU's BMC cannot do answers not_supported", async () => {
    const report = await runConformance({
      ...conformance["nvidia-dpu"],
      driver: nvidiaDpuDriver,
      mockup: mockupDir(model),
    });
    expect(conformanceFailures(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(conformanceStatuses(report)).toEqual(EXPECTED_STATUSES);
    const undeclared = report.results.filter((r) => !r.declared).map((r) => r.capability);
    expect(undeclared).toEqual(["acPowerCycle", "lockdown", "serialConsole", "tpmClear"]);
  });
});
