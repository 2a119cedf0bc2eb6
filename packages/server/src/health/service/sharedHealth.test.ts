import type { HealthReport } from "@racksmith/core/health";
import { describe, expect, it } from "vitest";
import type { FeatureContext } from "../../service/feature.js";
import { Extensions } from "../../service/index.js";
import type { HealthService } from "./healthService.js";
import { HOST_HEALTH, hostHealthRecorder } from "./sharedHealth.js";

describe("hostHealthRecorder", () => {
  it("records through the service's HealthService, added after the recorder was made", async () => {
    const extensions = new Extensions();
    const record = hostHealthRecorder({ extensions } as unknown as FeatureContext);
    const recorded: Array<[string, string]> = [];
    const shared = {
      recordReport: async (hostId: string, report: HealthReport) =>
        void recorded.push([hostId, report.source]),
    } as unknown as HealthService;
    extensions.add(HOST_HEALTH, shared);
    await record("host-1", { source: "ib-fabric-monitor", successes: [], alerts: [] });
    expect(recorded).toEqual([["host-1", "ib-fabric-monitor"]]);
  });
});
