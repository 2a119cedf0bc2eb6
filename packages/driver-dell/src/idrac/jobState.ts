import { type JobState, jobStateOf } from "@racksmith/core";

/** iDRAC JobState values by what a poller does next. */
const DELL_JOB_STATES: Readonly<Record<string, JobState>> = {
  New: "scheduled",
  Scheduling: "scheduled",
  Scheduled: "scheduled",
  Waiting: "scheduled",
  ReadyForExecution: "scheduled",
  Paused: "scheduled",
  PendingActivation: "scheduled",
  // A firmware image downloaded and waiting for the reboot that installs it.
  Downloaded: "scheduled",
  Downloading: "running",
  Running: "running",
  Completed: "completed",
  CompletedWithErrors: "completedWithErrors",
  Failed: "failed",
};

/** States after which a job no longer holds the queue. */
const FINISHED = new Set(["Completed", "CompletedWithErrors", "Failed"]);

/** A Scheduled job with this message never runs (NICo: ScheduledWithErrors). */
const INITIALIZATION_FAILURE = "job processing initialization failure.";

export function dellJobState(state: string | undefined, message: string | undefined): JobState {
  if (state === "Scheduled" && message?.trim().toLowerCase() === INITIALIZATION_FAILURE) return "failed";
  return (state !== undefined ? DELL_JOB_STATES[state] : undefined) ?? jobStateOf(state ?? "");
}

/** Still in the queue, blocking changes (a stuck "initialization failure" job included). */
export function isQueued(state: string | undefined): boolean {
  return !FINISHED.has(state ?? "");
}
