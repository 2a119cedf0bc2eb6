import type { JobRef, JobStatus } from "@racksmith/core";
import type { UpdateService } from "@racksmith/core/redfish";
import { type HpeUpdateServiceOem, hpeOem } from "../ilo/index.js";

/** iLO 5 answers SimpleUpdate without a task and reports the flash on the UpdateService instead. */
export const ILO_UPDATE_JOB_ID = "ilo-flash";

export function iloUpdateJob(updateServicePath: string): JobRef {
  return { kind: "job", id: ILO_UPDATE_JOB_ID, path: updateServicePath };
}

export function isIloUpdateJob(job: JobRef): boolean {
  return job.kind === "job" && job.id === ILO_UPDATE_JOB_ID;
}

/** `Oem.Hpe.State`: Complete and Error are final; Idle means iLO has no update in hand (started or not). */
export function iloUpdateStatus(service: UpdateService): JobStatus {
  const oem = hpeOem<HpeUpdateServiceOem>(service);
  const state = typeof oem.State === "string" ? oem.State : "";
  const percent =
    typeof oem.FlashProgressPercent === "number" ? { percentComplete: oem.FlashProgressPercent } : {};
  switch (state.toLowerCase()) {
    case "complete":
      return { id: ILO_UPDATE_JOB_ID, state: "completed", percentComplete: 100 };
    case "error":
      return {
        id: ILO_UPDATE_JOB_ID,
        state: "failed",
        message: `iLO update failed${oem.Result?.MessageId ? `: ${oem.Result.MessageId}` : ""}`,
      };
    case "idle":
    case "":
      return {
        id: ILO_UPDATE_JOB_ID,
        state: "unknown",
        message: "iLO reports no update in progress; check the firmware inventory",
      };
    default:
      return { id: ILO_UPDATE_JOB_ID, state: "running", ...percent, message: `iLO update state ${state}` };
  }
}
