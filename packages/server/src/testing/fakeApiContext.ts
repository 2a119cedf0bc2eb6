import { silentLogger } from "@racksmith/core";
import { Registry } from "prom-client";
import type { ApiContext, ObjectStateDto, ReadinessCheck } from "../api/index.js";

/** An ApiContext over an in-memory map, recording enqueues, for transport tests. */
export function fakeApiContext(objects: ObjectStateDto[] = []): ApiContext & {
  enqueued: Array<[string, string]>;
  ready: ReadinessCheck[];
} {
  const metrics = new Registry();
  const enqueued: Array<[string, string]> = [];
  const context = {
    enqueued,
    ready: [{ name: "database", ok: true, detail: "in-memory PGlite" }] as ReadinessCheck[],
    logger: silentLogger,
    metrics,
    version: () => ({
      coreVersion: "0.1.0",
      pluginApiVersion: 1,
      plugins: [{ name: "@x/y", version: "1.0.0" }],
      database: "in-memory PGlite",
    }),
    readiness: async () => context.ready,
    objectTypes: () => ["widget"],
    getObjectState: async (type: string, id: string, historyLimit: number) => {
      const found = objects.find((o) => o.objectType === type && o.objectId === id);
      return found ? { ...found, history: found.history.slice(0, historyLimit) } : undefined;
    },
    listObjects: async (type: string, options: { state?: string; limit: number; after?: string }) =>
      objects
        .filter((o) => o.objectType === type && (!options.state || o.state.state === options.state))
        .filter((o) => !options.after || o.objectId > options.after)
        .slice(0, options.limit),
    enqueue: async (type: string, id: string) => {
      enqueued.push([type, id]);
    },
  };
  return context;
}

export function widget(id: string, state = "assembling"): ObjectStateDto {
  return {
    objectType: "widget",
    objectId: id,
    state: { state, step: 2 },
    stateLabel: state,
    version: 3,
    enteredAt: "2026-11-22T03:00:00.000Z",
    timeInStateMs: 1500,
    sla: { slaMs: 60_000, aboveSla: false },
    outcome: { kind: "wait", reason: "waiting for parts", at: "2026-11-22T03:00:01.000Z" },
    history: [
      {
        state: { state, step: 2 },
        version: 3,
        enteredAt: "2026-11-22T03:00:00.000Z",
        slaMs: 60_000,
        exitOutcome: null,
      },
      {
        state: { state: "new" },
        version: 2,
        enteredAt: "2026-11-22T02:59:00.000Z",
        slaMs: null,
        exitOutcome: { kind: "wait", reason: "waiting for the BMC", at: "2026-11-22T02:59:30.000Z" },
      },
    ],
  };
}
