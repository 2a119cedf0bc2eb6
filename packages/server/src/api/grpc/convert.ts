import type { ObjectStateDto, VersionInfo } from "../context.js";
import type { Timestamp } from "./generated/google/protobuf/Timestamp.js";
import type { ObjectState } from "./generated/racksmith/v1/ObjectState.js";
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
    ...(view.outcome
      ? {
          outcome: {
            kind: view.outcome.kind,
            reason: view.outcome.reason ?? "",
            ...(view.outcome.error ? { error: view.outcome.error } : {}),
            at: timestamp(view.outcome.at),
          },
        }
      : {}),
    history: view.history.map((entry) => ({
      stateJson: JSON.stringify(entry.state),
      version: String(entry.version),
      enteredAt: timestamp(entry.enteredAt),
    })),
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
