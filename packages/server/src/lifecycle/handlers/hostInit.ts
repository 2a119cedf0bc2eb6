import { isNotSupported } from "@racksmith/core";
import { transition, wait } from "@racksmith/core/engine";
import type { HostOutcome, Step } from "../machine/step.js";
import type { FailureCause, HostInitStep, ManagedHostState } from "../states.js";
import { followJob } from "./bmcJob.js";
import { enterBomValidation } from "./bomValidating.js";
import { errorMessage } from "./errorMessage.js";
import { rethrowUnlessStepFailure } from "./stepFailure.js";

type State = Extract<ManagedHostState, { state: "hostInit" }>;

const SOURCE = "stateMachine/hostInit" as const;

const to = (machineState: HostInitStep): HostOutcome => transition({ state: "hostInit", machineState });

/**
 * Host init: lockdown off, host machine setup (BIOS, with its job where the vendor uses one), boot order
 * DPU-first by the primary DPU's MAC, the host agent's discovery, lockdown on, DPUs back, lockdown check.
 * Failing BMC steps are retried `maxRetries` times, `retryIntervalMs` apart, then the host is Failed.
 */
export async function handleHostInit(step: Step, state: State): Promise<HostOutcome> {
  const ms = state.machineState;
  const bmc = () => step.bmc(step.host);
  switch (ms.step) {
    case "disableLockdown":
      await ignoreNotSupported((await bmc()).setLockdown(false));
      return to({ step: "machineSetup", retryCount: 0 });
    case "machineSetup": {
      const pending = retryPending(step, ms.retryCount, "machine setup", ms.lastError);
      if (pending) return pending;
      try {
        const result = await (await bmc()).machineSetup(
          step.bootMac ? { bootInterfaceMac: step.bootMac } : {},
        );
        if (result.job) return to({ step: "waitingForBiosJob", retryCount: ms.retryCount, job: result.job });
        await step.power(step.host, "ForceRestart");
        return to({ step: "pollingBiosSetup", retryCount: ms.retryCount });
      } catch (error) {
        rethrowUnlessStepFailure(error);
        return retryOrFail(
          step,
          "machineSetup",
          ms.retryCount,
          `machine setup failed: ${errorMessage(error)}`,
          (n, e) => ({
            step: "machineSetup",
            retryCount: n,
            lastError: e,
          }),
        );
      }
    }
    case "waitingForBiosJob": {
      const progress = await followJob(step, ms.job);
      if (progress.kind === "done") return to({ step: "pollingBiosSetup", retryCount: ms.retryCount });
      if (progress.kind === "waiting") return step.pollBmc(progress.reason);
      return retryOrFail(step, "biosJob", ms.retryCount, progress.message, (n, e) => ({
        step: "machineSetup",
        retryCount: n,
        lastError: e,
      }));
    }
    case "pollingBiosSetup": {
      const status = await (await bmc()).machineSetupStatus(
        step.bootMac ? { bootInterfaceMac: step.bootMac } : {},
      );
      if (status.done) return to({ step: "setBootOrder", retryCount: 0 });
      const diffs = status.diffs.map((d) => `${d.key}: ${d.actual} (want ${d.expected})`).join(", ");
      return step.waitWithReboots(step.host, `BIOS does not show the machine setup yet (${diffs})`, {
        kick: false,
        cause: "machineSetup",
        source: SOURCE,
        pollBmc: true,
      });
    }
    case "setBootOrder": {
      const pending = retryPending(step, ms.retryCount, "setting the boot order", ms.lastError);
      if (pending) return pending;
      try {
        const host = await bmc();
        const job = step.bootMac
          ? await dpuFirstByMac(host, step.bootMac)
          : await host.bootFirst("uefiHttp").then(() => undefined);
        if (job) return to({ step: "waitingForBootOrderJob", retryCount: ms.retryCount, job });
        await step.power(step.host, "ForceRestart");
        return to({ step: "checkBootOrder", retryCount: ms.retryCount });
      } catch (error) {
        rethrowUnlessStepFailure(error);
        return retryOrFail(
          step,
          "bootOrder",
          ms.retryCount,
          `setting the boot order failed: ${errorMessage(error)}`,
          (n, e) => ({
            step: "setBootOrder",
            retryCount: n,
            lastError: e,
          }),
        );
      }
    }
    case "waitingForBootOrderJob": {
      const progress = await followJob(step, ms.job);
      if (progress.kind === "done") return to({ step: "checkBootOrder", retryCount: ms.retryCount });
      if (progress.kind === "waiting") return step.pollBmc(progress.reason);
      return retryOrFail(step, "bootOrder", ms.retryCount, progress.message, (n, e) => ({
        step: "setBootOrder",
        retryCount: n,
        lastError: e,
      }));
    }
    case "checkBootOrder": {
      const mac = step.bootMac;
      if (!mac || (await bootOrderDpuFirstOrUncheckable(await bmc(), mac))) {
        return to({ step: "waitingForDiscovery" });
      }
      if (step.now.getTime() - step.enteredAt.getTime() < step.config.jobTimeoutMs) {
        return step.pollBmc(`boot order does not start with ${mac} yet`);
      }
      return retryOrFail(
        step,
        "bootOrder",
        ms.retryCount,
        `boot order still does not start with ${mac}`,
        (n, e) => ({
          step: "setBootOrder",
          retryCount: n,
          lastError: e,
        }),
      );
    }
    case "waitingForDiscovery":
      if (step.since(step.snapshot.reports.get(step.host.id)?.discovery_completed_at)) {
        return to({ step: "enableLockdown" });
      }
      // The host boots the discovery image through its DPU; its agent reports the discovery.
      return step.waitWithReboots(step.host, "waiting for the host agent's discovery", {
        kick: true,
        cause: "discovery",
        source: SOURCE,
      });
    case "enableLockdown":
      await ignoreNotSupported((await bmc()).setLockdown(true));
      await step.power(step.host, "ForceRestart");
      return to({ step: "waitingForDpusUp" });
    case "waitingForDpusUp": {
      const down = step.snapshot.dpus.filter((d) => {
        const observedAt = step.snapshot.reports.get(d.id)?.network_status?.observedAt;
        return !step.since(observedAt ? new Date(observedAt) : undefined);
      });
      if (down.length === 0) return to({ step: "pollingLockdownStatus" });
      return wait(
        `waiting for the DPU agents of ${down.map((d) => d.id).join(", ")} to report after the restart`,
      );
    }
    case "pollingLockdownStatus": {
      const status = await (await bmc()).lockdownStatus().catch((error: unknown) => {
        if (isNotSupported(error)) return undefined;
        throw error;
      });
      if (!status || status.state === "enabled") return enterBomValidation(step, "discovery");
      return step.pollBmc(`lockdown is ${status.state}: ${status.message}`);
    }
  }
}

/** While a retried step waits out `retryIntervalMs`. */
function retryPending(
  step: Step,
  retryCount: number,
  what: string,
  lastError: string | undefined,
): HostOutcome | undefined {
  if (retryCount === 0) return undefined;
  const left = step.config.retryIntervalMs - (step.now.getTime() - step.enteredAt.getTime());
  if (left <= 0) return undefined;
  return step.waitFor(
    `retrying ${what} (attempt ${retryCount + 1} of ${step.config.maxRetries}) in ${Math.ceil(left / 1000)} s after: ${lastError ?? "a failure"}`,
    left,
  );
}

/** The step again with one more failure counted, or Failed when the attempts are used up. */
function retryOrFail(
  step: Step,
  cause: FailureCause,
  retryCount: number,
  message: string,
  again: (retryCount: number, lastError: string) => HostInitStep,
): HostOutcome {
  const attempts = retryCount + 1;
  if (attempts >= step.config.maxRetries) {
    return step.fail(cause, SOURCE, `${message} (${attempts} attempts)`);
  }
  return to(again(attempts, message));
}

type HostBmc = Awaited<ReturnType<Step["bmc"]>>;

/**
 * The DPU first in the boot order by its MAC; a BMC whose boot options name no MAC cannot do that, so the host
 * is set to boot UEFI HTTP first instead (the DPU answers it), as without a known boot MAC.
 */
async function dpuFirstByMac(host: HostBmc, mac: string) {
  try {
    return await host.setBootOrderDpuFirst(mac);
  } catch (error) {
    if (!isNotSupported(error)) throw error;
    await host.bootFirst("uefiHttp");
    return undefined;
  }
}

/** Whether the boot order starts with `mac`; true when the BMC cannot tell by MAC (the UEFI HTTP fallback). */
async function bootOrderDpuFirstOrUncheckable(host: HostBmc, mac: string): Promise<boolean> {
  try {
    return await host.isBootOrderDpuFirst(mac);
  } catch (error) {
    if (isNotSupported(error)) return true;
    throw error;
  }
}

async function ignoreNotSupported(operation: Promise<void>): Promise<void> {
  await operation.catch((error: unknown) => {
    if (!isNotSupported(error)) throw error;
  });
}
