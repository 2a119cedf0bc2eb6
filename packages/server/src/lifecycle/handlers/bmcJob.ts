import type { Step } from "../machine/step.js";
import type { PendingJob } from "../states.js";

export type JobProgress =
  | { kind: "done" }
  | { kind: "failed"; message: string }
  | { kind: "waiting"; reason: string };

/**
 * Where a BIOS or boot-order job stands. As NICo does, the host is restarted once per state entry to run the
 * job (a vendor job runs at the next boot, and even a job that completes at once needs the boot to apply its
 * settings); then the job must complete within `jobTimeoutMs`.
 */
export async function followJob(step: Step, job: PendingJob): Promise<JobProgress> {
  const lastRequest = step.snapshot.reports.get(step.host.id)?.last_reboot_request;
  if (!step.since(lastRequest ? new Date(lastRequest.at) : undefined)) {
    await step.power(step.host, "ForceRestart");
    return { kind: "waiting", reason: `host restarted to run job ${job.id}` };
  }
  const status = await (await step.bmc(step.host)).jobStatus(job);
  if (status.state === "completed") return { kind: "done" };
  if (status.state === "failed" || status.state === "completedWithErrors") {
    return {
      kind: "failed",
      message: `job ${job.id} ${status.state}${status.message ? `: ${status.message}` : ""}`,
    };
  }
  if (step.now.getTime() - step.enteredAt.getTime() > step.config.jobTimeoutMs) {
    return {
      kind: "failed",
      message: `job ${job.id} still ${status.state} after ${step.config.jobTimeoutMs} ms`,
    };
  }
  const progress = status.percentComplete !== undefined ? ` (${status.percentComplete}%)` : "";
  return { kind: "waiting", reason: `job ${job.id} is ${status.state}${progress}` };
}
