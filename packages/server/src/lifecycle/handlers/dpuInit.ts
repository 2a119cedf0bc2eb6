import { transition, wait } from "@racksmith/core/engine";
import { HEALTH_CLASSIFICATIONS } from "@racksmith/core/health";
import type { HostOutcome, Step } from "../machine/step.js";
import { DPU_INIT_STEPS, type DpuInitStep, leastAdvanced, type ManagedHostState } from "../states.js";
import { dpusNotSynced } from "./networkSync.js";
import { advanceLeastAdvanced, allDpusAt } from "./perDpu.js";

type State = Extract<ManagedHostState, { state: "dpuInit" }>;

const SOURCE = "stateMachine/dpuInit" as const;

/**
 * DPU init: wait for each DPU agent's discovery (restarting DPUs that do not show up), power-cycle the host,
 * DPU machine setup, wait for its BIOS, then for every DPU agent to apply the network config and be healthy.
 */
export async function handleDpuInit(step: Step, state: State): Promise<HostOutcome> {
  const current = leastAdvanced(state.dpus, DPU_INIT_STEPS);
  const dpuIds = Object.keys(state.dpus);
  const all = (next: DpuInitStep) =>
    transition<ManagedHostState>({ state: "dpuInit", dpus: allDpusAt(dpuIds, next) });
  switch (current) {
    case "waitingForDiscovery": {
      const missing = step.snapshot.dpus.filter(
        (d) => !step.since(step.snapshot.reports.get(d.id)?.discovery_completed_at),
      );
      if (missing.length === 0) return all("powerCycleHostOff");
      // The DPUs boot over UEFI HTTP (set in DPU discovery): the installer puts the OS and its agent on them,
      // and the agents discover them. A DPU booted from its disk without a completed install has no agent, and
      // the override is spent by the boot that used it: so every restart of a DPU that has not reported since
      // sets the HTTP boot again, as DPU discovery did, and a lost install or report heals at the next cycle
      // (also when this run's reboot record was lost to a crash and the kick is repeated).
      const reasons = await Promise.all(
        missing.map((dpu) =>
          step.waitWithReboots(dpu, `waiting for the DPU agent of ${dpu.id} to discover its DPU`, {
            kick: true,
            cause: "dpuInit",
            source: SOURCE,
            bootOnce: "uefiHttp",
          }),
        ),
      );
      return reasons.find((r) => r.kind === "transition") ?? reasons[0] ?? wait("waiting for DPU discovery");
    }
    case "powerCycleHostOff":
      await step.power(step.host, "ForceOff");
      return all("powerCycleHostOn");
    case "powerCycleHostOn": {
      const offFor = step.now.getTime() - step.enteredAt.getTime();
      if (offFor < step.config.powerDownWaitMs) {
        return step.waitFor(
          `host powered off for a power cycle; on after ${step.config.powerDownWaitMs} ms`,
          step.config.powerDownWaitMs - offFor,
        );
      }
      await step.power(step.host, "On");
      return all("waitingForPlatformConfiguration");
    }
    case "waitingForPlatformConfiguration":
    case "pollingBiosSetup": {
      const { next, moved } = await advanceLeastAdvanced(
        step,
        state.dpus,
        DPU_INIT_STEPS,
        async (dpu, at) => {
          const bmc = await step.bmc(dpu);
          if (at === "waitingForPlatformConfiguration") {
            await bmc.machineSetup({});
            // A DPU applies its BIOS settings when it restarts.
            await step.power(dpu, "ForceRestart");
            return "pollingBiosSetup";
          }
          const status = await bmc.machineSetupStatus({});
          return status.done ? "waitingForNetworkConfig" : undefined;
        },
      );
      if (moved > 0) return transition({ state: "dpuInit", dpus: next });
      return step.snapshot.dpus.length > 0 ? waitForBios(step) : wait("no DPU left to set up");
    }
    case "waitingForNetworkConfig": {
      const notSynced = dpusNotSynced(step, { instanceConfigVersion: null });
      const blocked = step.dpuAlerts(HEALTH_CLASSIFICATIONS.preventHostStateChanges);
      if (notSynced.length === 0 && blocked.length === 0) {
        return transition({ state: "hostInit", machineState: { step: "disableLockdown" } });
      }
      return wait(
        [
          notSynced.length
            ? `waiting for DPU agents to apply network config v${step.snapshot.networkConfigVersion}: ${notSynced.join("; ")}`
            : "",
          blocked.length
            ? `DPU health prevents host state changes: ${blocked.map((a) => `${a.id}: ${a.message}`).join("; ")}`
            : "",
        ]
          .filter(Boolean)
          .join("; "),
      );
    }
    default:
      return wait("host has no DPUs in DPU init");
  }
}

async function waitForBios(step: Step): Promise<HostOutcome> {
  const dpu = step.snapshot.dpus[0];
  if (!dpu) return wait("no DPU");
  return step.waitWithReboots(dpu, "waiting for the DPUs' BIOS to show the machine setup", {
    kick: false,
    cause: "dpuInit",
    source: SOURCE,
    pollBmc: true,
  });
}
