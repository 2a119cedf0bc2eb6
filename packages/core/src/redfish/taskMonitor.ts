import { setTimeout as sleep } from "node:timers/promises";
import type { RedfishClient } from "./client.js";
import {
  extendedInfoOf,
  RedfishConnectionError,
  RedfishHttpError,
  type RedfishMessage,
  RedfishTaskFailedError,
  RedfishTimeoutError,
} from "./errors.js";
import type { RedfishObject } from "./types.js";

export interface TaskWaitOptions {
  /** Give up after this long (default 30 min: firmware updates are slow). */
  timeoutMs?: number;
  /** First poll delay; doubles up to `maxPollMs` (defaults 1 s and 15 s). */
  pollMs?: number;
  maxPollMs?: number;
  /** Transport errors or 5xx tolerated in a row while the BMC is busy (default 5). */
  maxConsecutiveErrors?: number;
  /** Called after every poll with the task's progress (for CLI progress and logs). */
  onProgress?: (progress: { state: string; percentComplete?: number }) => void;
}

export interface RedfishTaskResult {
  taskPath: string;
  state: string;
  percentComplete?: number;
  messages: RedfishMessage[];
  /** The final answer of the monitor: the Task, or the operation's own response. */
  body: RedfishObject | undefined;
}

const RUNNING = new Set([
  "New",
  "Starting",
  "Running",
  "Pending",
  "Stopping",
  "Cancelling",
  "Service",
  "Suspended",
]);
const FAILED = new Set(["Exception", "Killed", "Cancelled", "Interrupted"]);

/**
 * Polls a task monitor until the task ends. A 202 or a Task in a running state means "not yet"; a Task in
 * Completed (or a non-202 answer without TaskState) is success; Exception, Killed, Cancelled or Interrupted
 * throw {@link RedfishTaskFailedError}. A monitor that disappears after the task finished is followed to the
 * Task resource itself. Busy BMCs that drop a poll or answer 5xx are polled again.
 */
export async function waitForTask(
  client: RedfishClient,
  location: string,
  options: TaskWaitOptions = {},
): Promise<RedfishTaskResult> {
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const maxPollMs = options.maxPollMs ?? 15_000;
  const maxErrors = options.maxConsecutiveErrors ?? 5;
  const deadline = Date.now() + timeoutMs;
  let delay = options.pollMs ?? 1_000;
  let monitor = location;
  let taskUri: string | undefined;
  let errors = 0;

  for (;;) {
    let status: number;
    let body: RedfishObject | undefined;
    try {
      const response = await client.request("GET", monitor);
      status = response.status;
      body = isObject(response.body) ? response.body : undefined;
      errors = 0;
    } catch (error) {
      const gone = error instanceof RedfishHttpError && error.httpStatus === 404;
      if (gone && taskUri && taskUri !== monitor) {
        monitor = taskUri;
        continue;
      }
      const transient =
        error instanceof RedfishConnectionError ||
        (error instanceof RedfishTimeoutError && error.phase !== "task") ||
        (error instanceof RedfishHttpError && error.httpStatus >= 500);
      if (!transient || ++errors > maxErrors) throw error;
      status = 0;
    }

    if (status !== 0) {
      const state = typeof body?.TaskState === "string" ? body.TaskState : undefined;
      const percent = typeof body?.PercentComplete === "number" ? body.PercentComplete : undefined;
      if (typeof body?.["@odata.id"] === "string" && state !== undefined) taskUri = body["@odata.id"];
      options.onProgress?.({
        state: state ?? (status === 202 ? "Running" : "Completed"),
        ...(percent !== undefined ? { percentComplete: percent } : {}),
      });
      const messages = body ? messagesOf(body) : [];
      if (state && FAILED.has(state)) throw new RedfishTaskFailedError(monitor, state, messages);
      const running = status === 202 || (state !== undefined && RUNNING.has(state));
      if (!running) {
        return {
          taskPath: taskUri ?? monitor,
          state: state ?? "Completed",
          ...(percent !== undefined ? { percentComplete: percent } : {}),
          messages,
          body,
        };
      }
    }

    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new RedfishTimeoutError(client.displayAddress, "task", timeoutMs, `waiting for task ${location}`);
    }
    // An aborted client ends the wait at once: its next poll fails with RedfishAbortedError.
    await sleep(Math.min(delay, remaining), undefined, client.signal ? { signal: client.signal } : {}).catch(
      () => undefined,
    );
    delay = Math.min(maxPollMs, delay * 2);
  }
}

function isObject(value: unknown): value is RedfishObject {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function messagesOf(task: RedfishObject): RedfishMessage[] {
  const list = Array.isArray(task.Messages) ? task.Messages : [];
  const messages = list.filter(isObject).map((m) => ({
    messageId: String(m.MessageId ?? ""),
    ...(typeof m.Message === "string" ? { message: m.Message } : {}),
    ...(typeof m.Severity === "string" ? { severity: m.Severity } : {}),
  }));
  return messages.length ? messages : extendedInfoOf(task);
}
