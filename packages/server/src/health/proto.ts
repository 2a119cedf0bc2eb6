import type { HealthReport } from "@racksmith/core/health";
import { parseHealthReport } from "@racksmith/core/health";
import type { Timestamp } from "../api/grpc/generated/google/protobuf/Timestamp.js";
import type { HealthReport as ProtoHealthReport } from "../api/grpc/generated/racksmith/v1/HealthReport.js";

export type { ProtoHealthReport };

/** The protobuf message of a report (`racksmith.v1.HealthReport`); ISO timestamps become Timestamps. */
export function healthReportToProto(report: HealthReport): ProtoHealthReport {
  return {
    source: report.source,
    ...(report.triggeredBy !== undefined ? { triggeredBy: report.triggeredBy } : {}),
    observedAt: report.observedAt !== undefined ? timestamp(report.observedAt) : null,
    successes: report.successes.map((success) => ({
      id: success.id,
      ...(success.target !== undefined ? { target: success.target } : {}),
    })),
    alerts: report.alerts.map((alert) => ({
      id: alert.id,
      ...(alert.target !== undefined ? { target: alert.target } : {}),
      inAlertSince: alert.inAlertSince !== undefined ? timestamp(alert.inAlertSince) : null,
      message: alert.message,
      ...(alert.tenantMessage !== undefined ? { tenantMessage: alert.tenantMessage } : {}),
      classifications: [...alert.classifications],
    })),
  };
}

/**
 * A report from its protobuf message (a decoded request: `__Output` types fit too), checked like a JSON
 * report; throws InvalidArgumentError naming `where` and the bad field. Empty optional strings count as
 * absent, since many protobuf clients cannot tell "" from unset.
 */
export function healthReportFromProto(message: ProtoHealthReport, where = "health report"): HealthReport {
  return parseHealthReport(
    {
      source: message.source ?? "",
      ...present("triggeredBy", message.triggeredBy),
      ...present("observedAt", isoFromTimestamp(message.observedAt)),
      successes: (message.successes ?? []).map((success) => ({
        id: success.id ?? "",
        ...present("target", success.target),
      })),
      alerts: (message.alerts ?? []).map((alert) => ({
        id: alert.id ?? "",
        ...present("target", alert.target),
        ...present("inAlertSince", isoFromTimestamp(alert.inAlertSince)),
        message: alert.message ?? "",
        ...present("tenantMessage", alert.tenantMessage),
        classifications: alert.classifications ?? [],
      })),
    },
    where,
  );
}

function present<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

/**
 * An ISO string as a protobuf Timestamp, in the form `api/grpc/convert.ts` writes (seconds as a decimal
 * string). Kept here rather than imported so the plugin SDK does not load the API's modules.
 */
function timestamp(iso: string): Timestamp {
  const millis = Date.parse(iso);
  const seconds = Math.floor(millis / 1000);
  return { seconds: String(seconds), nanos: (millis - seconds * 1000) * 1_000_000 };
}

/** A protobuf Timestamp as an ISO string; a missing (or all-zero, unset) one as undefined. */
function isoFromTimestamp(value: Timestamp | null | undefined): string | undefined {
  if (!value) return undefined;
  const seconds = Number(String(value.seconds ?? 0));
  const nanos = value.nanos ?? 0;
  if (seconds === 0 && nanos === 0) return undefined;
  return new Date(seconds * 1000 + Math.floor(nanos / 1_000_000)).toISOString();
}
