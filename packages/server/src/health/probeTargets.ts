import type { HealthProbeTarget } from "@racksmith/core/health";
import type { MachineKind } from "../explorer/index.js";

/** Which of a probe's targets a machine is: every machine has a BMC; hosts and DPUs are also their own kind. */
export function probeTargetsOf(
  targets: readonly HealthProbeTarget[],
  machineKind: MachineKind,
): HealthProbeTarget[] {
  return targets.filter((target) => target === "bmc" || target === machineKind);
}
