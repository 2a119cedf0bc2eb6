/**
 * `@racksmith/driver-dell/testing`: the iDRAC behaviors the testkit mockup server plays out, and the
 * conformance profile `racksmith driver test` uses for this package.
 */
import type { DriverConformanceProfile } from "@racksmith/testkit";
import { dellMockupBehaviors } from "./dellMockup.js";

export { type DellMockupOptions, dellMockupBehaviors } from "./dellMockup.js";

export const conformance: Record<string, DriverConformanceProfile> = {
  dell: {
    // The shared suite waits for a returned job before it reboots the host, and runs the checks after
    // lockdown with the BMC still locked; an iDRAC runs jobs at the reboot and refuses changes while locked.
    // So the suite's mockup completes jobs at once and leaves lockdown unenforced; the package's own tests
    // play both out the iDRAC way.
    behaviors: dellMockupBehaviors({ jobsRun: "atOnce", enforceLockdown: false }),
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
