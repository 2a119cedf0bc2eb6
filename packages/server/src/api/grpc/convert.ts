import type { ObjectStateDto, VersionInfo } from "../context.js";
import type { Timestamp } from "./generated/google/protobuf/Timestamp.js";
import type { ObjectState } from "./generated/racksmith/v1/ObjectState.js";
import type { Outcome } from "./generated/racksmith/v1/Outcome.js";
import type { VersionResponse } from "./generated/racksmith/v1/VersionResponse.js";

export function timestamp(iso: string): Timestamp {
  const millis = Date.parse(iso);
  return { seconds: String(Math.floor(millis / 1000)), nanos: (millis % 1000) * 1_000_000 };
}

/** The REST/engine view as the protobuf message (states travel as JSON strings). */
export function toObjectStateMessage(view: ObjectStateDto): ObjectState {
  return {
    objectType: view.objectType,
    objectId: view.objectId,
    stateJson: JSON.stringify(view.state),
    stateLabel: view.stateLabel,
    version: String(view.version),
    enteredAt: timestamp(view.enteredAt),
    timeInStateMs: String(view.timeInStateMs),
    sla: {
      ...(view.sla.slaMs !== null ? { slaMs: String(view.sla.slaMs) } : {}),
      aboveSla: view.sla.aboveSla,
    },
    ...(view.outcome ? { outcome: toOutcomeMessage(view.outcome) } : {}),
    history: view.history.map((entry) => ({
      stateJson: JSON.stringify(entry.state),
      version: String(entry.version),
      enteredAt: timestamp(entry.enteredAt),
      ...historyExtras(entry),
    })),
  };
}

/** A stored handler outcome as the protobuf message. */
export function toOutcomeMessage(outcome: NonNullable<ObjectStateDto["outcome"]>): Outcome {
  return {
    kind: outcome.kind,
    reason: outcome.reason ?? "",
    ...(outcome.error ? { error: outcome.error } : {}),
    at: timestamp(outcome.at),
  };
}

/** What a history entry says beyond its state: its SLA (absent: none) and the outcome that ended it. */
export function historyExtras(entry: Pick<ObjectStateDto["history"][number], "slaMs" | "exitOutcome">): {
  slaMs?: string;
  exitOutcome?: Outcome;
} {
  return {
    ...(entry.slaMs !== null ? { slaMs: String(entry.slaMs) } : {}),
    ...(entry.exitOutcome ? { exitOutcome: toOutcomeMessage(entry.exitOutcome) } : {}),
  };
}

export function toVersionMessage(info: VersionInfo): VersionResponse {
  return {
    coreVersion: info.coreVersion,
    pluginApiVersion: info.pluginApiVersion,
    plugins: info.plugins,
    database: info.database,
  };
}
