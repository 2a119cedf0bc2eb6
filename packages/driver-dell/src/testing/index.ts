/**
 * `@racksmith/driver-dell/testing`: the iDRAC behaviors the testkit mockup server plays out, and the
 * conformance profile `racksmith driver test` uses for this package.
 */
import type { DriverConformanceProfile } from "@racksmith/testkit";
import { dellMockupBehaviors } from "./dellMockup.js";

export { type DellMockupOptions, dellMockupBehaviors } from "./dellMockup.js";

export const conformance: Record<string, DriverConformanceProfile> = {
  dell: {
    // The suite stages changes in one capability after another without rebooting between them, which a real
    // iDRAC refuses (SYS011: a job is already committed). So the suite's mockup completes jobs at once; the
    // package's own tests play jobs out the iDRAC way (run at the next reboot). Lockdown is enforced.
    behaviors: dellMockupBehaviors({ jobsRun: "atOnce" }),
    expectations: { tpmClearLeavesPending: true },
    // Machine setup applies the model's performance profile with NICo's table.
    settings: {
      biosProfiles: {
        "PowerEdge R750": { performance: { SysProfile: "PerfOptimized", ProcCStates: "Disabled" } },
        "PowerEdge XE9680": { performance: { SysProfile: "PerfOptimized", LogicalProc: "Disabled" } },
      },
    },
  },
};
