import type { Logger } from "@racksmith/core";
import type { Registry } from "prom-client";

/** What `Version` reports. */
export interface VersionInfo {
  coreVersion: string;
  pluginApiVersion: number;
  plugins: Array<{ name: string; version: string }>;
  database: string;
}

/** One object's lifecycle state as every API presents it (the engine's `ObjectStateView`). */
export interface ObjectStateDto {
  objectType: string;
  objectId: string;
  state: { state: string; [key: string]: unknown };
  stateLabel: string;
  version: number;
  enteredAt: string;
  timeInStateMs: number;
  sla: { slaMs: number | null; aboveSla: boolean };
  outcome: {
    kind: string;
    reason?: string;
    error?: { code: string; message: string };
    at: string;
  } | null;
  history: Array<{
    state: { state: string; [key: string]: unknown };
    version: number;
    enteredAt: string;
    slaMs: number | null;
    /** The last outcome recorded in that state when it was left (what it waited for); null while in it. */
    exitOutcome: ObjectStateDto["outcome"];
  }>;
}

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * Everything the REST and gRPC layers need, behind one interface: the transports stay thin and can be tested
 * against a fake, and the service wires the real engine and database in.
 */
export interface ApiContext {
  logger: Logger;
  metrics: Registry;
  version(): VersionInfo;
  readiness(): Promise<ReadinessCheck[]>;
  getObjectState(
    objectType: string,
    objectId: string,
    historyLimit: number,
  ): Promise<ObjectStateDto | undefined>;
  listObjects(
    objectType: string,
    options: { state?: string; limit: number; after?: string },
  ): Promise<ObjectStateDto[]>;
  enqueue(objectType: string, objectId: string): Promise<void>;
  /** Object types the engine knows; used to refuse unknown ones with a clear error. */
  objectTypes(): readonly string[];
}
