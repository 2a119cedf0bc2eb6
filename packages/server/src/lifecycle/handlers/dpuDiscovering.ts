import { isNotSupported } from "@racksmith/core";
import { transition, wait } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import { DPU_DISCOVERING_STEPS, type DpuDiscoveringStep, type ManagedHostState } from "../states.js";
import { advanceLeastAdvanced, allAt, allDpusAt } from "./perDpu.js";

type State = Extract<ManagedHostState, { state: "dpuDiscovering" }>;

/** Rshim on, secure boot as configured, boot once over UEFI HTTP; then every DPU is restarted in DPU init. */
export async function handleDpuDiscovering(step: Step, state: State): Promise<HostOutcome> {
  if (allAt(state.dpus, "rebootAllDpus")) {
    return transition({ state: "dpuInit", dpus: allDpusAt(Object.keys(state.dpus), "waitingForDiscovery") });
  }
  const { next, moved, current } = await advanceLeastAdvanced(
    step,
    state.dpus,
    DPU_DISCOVERING_STEPS,
    async (dpu, at): Promise<DpuDiscoveringStep | undefined> => {
      const bmc = await step.bmc(dpu);
      switch (at) {
        case "enableRshim":
          // NICo ignores rshim errors: a DPU whose BMC cannot do it still boots over HTTP.
          await bmc.enableRshim().catch((error: unknown) => {
            step.context.logger.warn(
              { dpu: dpu.id, error: String(error) },
              "enabling rshim failed; going on",
            );
          });
          return "configureSecureBoot";
        case "configureSecureBoot": {
          const desired = step.config.dpuSecureBoot;
          const status = await bmc.secureBootStatus().catch((error: unknown) => {
            if (isNotSupported(error)) return undefined;
            throw error;
          });
          if (status && status.enabled !== desired) await bmc.setSecureBoot(desired);
          return "setUefiHttpBoot";
        }
        case "setUefiHttpBoot":
          await bmc.bootOnce("uefiHttp");
          return "rebootAllDpus";
        default:
          return undefined;
      }
    },
  );
  if (moved === 0) return wait(`no DPU could leave ${current}`);
  return transition({ state: "dpuDiscovering", dpus: next });
}
