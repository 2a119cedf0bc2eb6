import { createMember, ensureCollection } from "./collections.js";
import { type JsonObject, linkOf } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { baseMessage } from "./redfishMessages.js";
import { resourceKey } from "./resourcePath.js";
import { jsonResponse } from "./responses.js";
import type { MockupResponse } from "./types.js";

const TASK_SERVICE = "/redfish/v1/TaskService";
const DEFAULT_TASKS = `${TASK_SERVICE}/Tasks`;
const RUNNING_STATES = new Set(["New", "Starting", "Running", "Pending"]);

export interface MockupTaskOptions {
  readonly name?: string;
  /** Running time before the task reads as Completed (0 completes at once). */
  readonly durationMs: number;
  /** Recorded in the task's `Payload` (what the client asked for). */
  readonly payload?: JsonObject;
}

export interface CreatedTask {
  readonly taskPath: string;
  /** Where the client polls: 202 while running, 200 once done. */
  readonly monitorPath: string;
  readonly task: JsonObject;
}

/**
 * Creates a Task that reads as Running until `durationMs` has passed, then Completed. Completion is applied when
 * the task is next read (no timer), so nothing is left running when a server stops.
 */
export async function createTask(state: MockupState, options: MockupTaskOptions): Promise<CreatedTask> {
  const taskService = await state.read(TASK_SERVICE);
  const tasksPath =
    (taskService?.kind === "json" ? linkOf(taskService.body.Tasks) : undefined) ?? DEFAULT_TASKS;
  const collection = await ensureCollection(state, tasksPath, "#TaskCollection.TaskCollection");
  const startedAt = state.now();
  const created = await createMember(state, tasksPath, collection, {
    "@odata.type": "#Task.v1_4_3.Task",
    Name: options.name ?? "Task",
    TaskState: "Running",
    TaskStatus: "OK",
    PercentComplete: 0,
    StartTime: new Date(startedAt).toISOString(),
    Messages: [],
    ...(options.payload ? { Payload: options.payload } : {}),
  });
  const monitorPath = `${created.path}/Monitor`;
  state.taskMonitors.set(resourceKey(monitorPath), created.path);
  const withMonitor = state.write(created.path, { ...created.document.body, TaskMonitor: monitorPath });
  const completedAt = startedAt + Math.max(0, options.durationMs);
  state.schedulePatch(created.path, completedAt, {
    TaskState: "Completed",
    TaskStatus: "OK",
    PercentComplete: 100,
    EndTime: new Date(completedAt).toISOString(),
    Messages: [baseMessage("Success")],
  });
  const current = await state.read(created.path);
  return {
    taskPath: created.path,
    monitorPath,
    task: current?.kind === "json" ? current.body : withMonitor.body,
  };
}

/** 202 + Location of the monitor and the Task, what a BMC answers to a long-running request. */
export function taskAccepted(task: CreatedTask): MockupResponse {
  return jsonResponse(202, task.task, { location: task.monitorPath });
}

/** GET of a task monitor: 202 + the Task while it runs, 200 + the Task once it ended; undefined if unknown. */
export async function readTaskMonitor(
  state: MockupState,
  pathname: string,
): Promise<MockupResponse | undefined> {
  const taskPath = state.taskMonitors.get(resourceKey(pathname));
  if (!taskPath) return undefined;
  const task = await state.read(taskPath);
  if (task?.kind !== "json") return undefined;
  return RUNNING_STATES.has(String(task.body.TaskState))
    ? jsonResponse(202, task.body, { location: pathname, etag: task.etag })
    : jsonResponse(200, task.body, { etag: task.etag });
}
