import type { HealthReport } from "@racksmith/core/health";
import { retainInAlertSince } from "./inAlertSince.js";

/**
 * The operator overrides of one host (NICo's `health_reports` column), keyed by source: several `merge`
 * overrides are merged with everything else; at most one `replace` override becomes the host's aggregate
 * health outright. Plain JSON, so it is stored as one column.
 */
export interface HealthOverrides {
  merges: Record<string, HealthReport>;
  replace?: HealthReport;
}

export type HealthOverrideMode = "merge" | "replace";

export interface AddOverrideOptions {
  now: Date;
  /** Who applied it (operator, API client); recorded on the report. */
  triggeredBy?: string;
}

export function emptyHealthOverrides(): HealthOverrides {
  return { merges: {} };
}

/**
 * Adds an override. Any override of the same source is removed first, in either mode, so a source is never
 * both merged and replacing. The report is stamped: `observedAt` defaults to now, `triggeredBy` is set when
 * given, and alerts without `inAlertSince` get now (an override starts its own alert history).
 */
export function addOverride(
  overrides: HealthOverrides,
  report: HealthReport,
  mode: HealthOverrideMode,
  options: AddOverrideOptions,
): HealthOverrides {
  const stamped: HealthReport = {
    ...retainInAlertSince(report, undefined, options.now),
    observedAt: report.observedAt ?? options.now.toISOString(),
    ...(options.triggeredBy !== undefined ? { triggeredBy: options.triggeredBy } : {}),
  };
  const rest = removeOverride(overrides, report.source);
  return mode === "replace"
    ? { ...rest, replace: stamped }
    : { ...rest, merges: { ...rest.merges, [report.source]: stamped } };
}

/** Removes the override of a source, whichever mode it has; unchanged when there is none. */
export function removeOverride(overrides: HealthOverrides, source: string): HealthOverrides {
  const { [source]: _removed, ...merges } = overrides.merges;
  const replace = overrides.replace?.source === source ? undefined : overrides.replace;
  return { merges, ...(replace ? { replace } : {}) };
}

/** Every override with its mode, merges by source, then the replace one (for listings and APIs). */
export function listOverrides(
  overrides: HealthOverrides,
): { mode: HealthOverrideMode; report: HealthReport }[] {
  const merges = Object.keys(overrides.merges)
    .sort()
    .flatMap((source) => {
      const report = overrides.merges[source];
      return report ? [{ mode: "merge" as const, report }] : [];
    });
  return overrides.replace ? [...merges, { mode: "replace", report: overrides.replace }] : merges;
}
