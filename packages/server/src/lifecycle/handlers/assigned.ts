import { isNotSupported } from "@racksmith/core";
import { doNothing, transition, wait } from "@racksmith/core/engine";
import { HEALTH_CLASSIFICATIONS } from "@racksmith/core/health";
import type { HostOutcome, Step } from "../machine/step.js";
import { setAdminNetwork, terminateInstance } from "../machine/writes.js";
import type { InstanceStep, ManagedHostState } from "../states.js";
import { fabricsNotReleased, fabricsNotSynced } from "./fabricSync.js";
import { dpusNotSynced } from "./networkSync.js";

type State = Extract<ManagedHostState, { state: "assigned" }>;

const SOURCE = "stateMachine/assigned" as const;

/**
 * An instance's life on the host: tenant network config applied on every DPU, reboot, Ready; on release the
 * host is powered off and on, unlocked, booted into the discovery image and switched back to the admin
 * network — isolated — before cleanup starts.
 */
export async function handleAssigned(step: Step, state: State): Promise<HostOutcome> {
  const to = (instanceState: InstanceStep): HostOutcome =>
    transition({ state: "assigned", instanceId: state.instanceId, instanceState });
  const instance = step.snapshot.instance?.id === state.instanceId ? step.snapshot.instance : undefined;
  // A missing instance row (removed by hand) is treated as released.
  const released = !instance || instance.release_requested_at !== null;
  const ms = state.instanceState;
  switch (ms.step) {
    case "waitingForNetworkConfig": {
      if (released) return to({ step: "powerCycleOff" });
      const notSynced = dpusNotSynced(step, { instanceConfigVersion: instance.config_version });
      const fabrics = await fabricsNotSynced(step, instance);
      const blocked = await step.alerts(HEALTH_CLASSIFICATIONS.preventHostStateChanges);
      if (notSynced.length === 0 && fabrics.length === 0 && blocked.length === 0) {
        return to({ step: "waitingForRebootToReady" });
      }
      return wait(
        notSynced.length
          ? `waiting for DPU agents to apply the tenant network config: ${notSynced.join("; ")}`
          : fabrics.length
            ? `waiting for the tenant fabric config: ${fabrics.join("; ")}`
            : `health prevents host state changes: ${blocked.map((a) => `${a.id}: ${a.message}`).join("; ")}`,
      );
    }
    case "waitingForRebootToReady":
      await step.power(step.host, "ForceRestart");
      return to({ step: "ready" });
    case "ready":
      return released ? to({ step: "powerCycleOff" }) : doNothing();
    case "powerCycleOff":
      await step.power(step.host, "ForceOff");
      return to({ step: "powerCycleOn" });
    case "powerCycleOn": {
      const offFor = step.now.getTime() - step.enteredAt.getTime();
      if (offFor < step.config.powerDownWaitMs) {
        return step.waitFor(
          `host powered off after release; on after ${step.config.powerDownWaitMs} ms`,
          step.config.powerDownWaitMs - offFor,
        );
      }
      await step.power(step.host, "On");
      return to({ step: "unlockHost" });
    }
    case "unlockHost":
      await (await step.bmc(step.host)).setLockdown(false).catch((error: unknown) => {
        if (!isNotSupported(error)) throw error;
      });
      return to({ step: "bootingWithDiscoveryImage" });
    case "bootingWithDiscoveryImage":
      if (step.since(step.snapshot.reports.get(step.host.id)?.reboot_completed_at)) {
        return to({ step: "switchToAdminNetwork" });
      }
      return step.waitWithReboots(step.host, "waiting for the host to boot the discovery image", {
        kick: true,
        cause: "discovery",
        source: SOURCE,
      });
    case "switchToAdminNetwork": {
      const now = step.now;
      step.context.defer((trx) => setAdminNetwork(trx, step.host.id, true, now));
      return to({ step: "waitingForNetworkReconfig" });
    }
    case "waitingForNetworkReconfig": {
      const notSynced = dpusNotSynced(step, { instanceConfigVersion: null });
      if (notSynced.length > 0 || !step.snapshot.useAdminNetwork) {
        return wait(`waiting for DPU agents to put the host on the admin network: ${notSynced.join("; ")}`);
      }
      const fabrics = await fabricsNotReleased(step, state.instanceId);
      if (fabrics.length > 0)
        return wait(`waiting for the host to leave tenant fabrics: ${fabrics.join("; ")}`);
      const now = step.now;
      step.context.defer((trx) => terminateInstance(trx, state.instanceId, now));
      return transition({ state: "waitingForCleanup", cleanupState: { step: "hostCleanup" } });
    }
  }
}
