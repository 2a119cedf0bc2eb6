import { transition } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import { allDpusAt } from "./perDpu.js";

/** Ingested: DPU discovery for every DPU, or straight to host init for a host without DPUs. */
export function handleCreated(step: Step): HostOutcome {
  const dpuIds = step.snapshot.dpus.map((d) => d.id);
  if (dpuIds.length === 0)
    return transition({ state: "hostInit", machineState: { step: "disableLockdown" } });
  return transition({ state: "dpuDiscovering", dpus: allDpusAt(dpuIds, "enableRshim") });
}
