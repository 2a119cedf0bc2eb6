import { type BmcDriverDefinition, RedfishStandard, redfishStandardDriver } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { EXAMPLE_MOCKUP } from "../index.js";
import { conformanceFailures, conformanceStatuses, expectedConformanceStatuses } from "./reportSummary.js";
import { runConformance } from "./runConformance.js";

describe("conformance suite", () => {
  it("passes RedfishStandard on the example mockup; what the standard cannot do reports not_supported", async () => {
    const report = await runConformance({ driver: redfishStandardDriver, mockup: EXAMPLE_MOCKUP });
    expect(conformanceFailures(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(conformanceStatuses(report)).toEqual(
      expectedConformanceStatuses(["acPowerCycle", "lockdown", "tpmClear", "dpu"]),
    );
    const undeclared = report.results.filter((r) => !r.declared).map((r) => r.capability);
    expect(undeclared).toEqual(["acPowerCycle", "lockdown", "tpmClear", "dpu"]);
  });

  it("fails a driver that claims success for something it does not declare", async () => {
    class Pretender extends RedfishStandard {
      override async lockdownStatus() {
        return { state: "enabled" as const, message: "trust me" };
      }
    }
    const pretender: BmcDriverDefinition = {
      ...redfishStandardDriver,
      name: "pretender",
      create: (c, ctx) => new Pretender(c, ctx),
    };
    const report = await runConformance({ driver: pretender, mockup: EXAMPLE_MOCKUP, only: ["lockdown"] });
    expect(report.passed).toBe(false);
    expect(report.results[0]).toMatchObject({
      capability: "lockdown",
      declared: false,
      status: "fail",
      message: expect.stringMatching(/does not declare lockdown/),
    });
  });

  it("fails a driver whose declared capability does not hold", async () => {
    class StuckPower extends RedfishStandard {
      override async power(): Promise<void> {}
    }
    const stuck: BmcDriverDefinition = {
      ...redfishStandardDriver,
      name: "stuck",
      create: (c, ctx) => new StuckPower(c, ctx),
    };
    const report = await runConformance({
      driver: stuck,
      mockup: EXAMPLE_MOCKUP,
      only: ["power"],
      settleTimeoutMs: 100,
    });
    expect(report.results[0]).toMatchObject({
      status: "fail",
      message: expect.stringMatching(/after GracefulShutdown the power state is On/),
    });
  });
});
