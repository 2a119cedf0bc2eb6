import type { HealthReport } from "@racksmith/core/health";
import type { AggregateHealthInput, DpuHealthInput, SensorAlertMode } from "../aggregate.js";
import { explorerFindingsReport } from "./explorerAlerts.js";
import type { HostHealthFacts } from "./gather.js";
import { isSensorSource } from "./sources.js";
import { validationReport } from "./validationAlerts.js";

export interface AssembleOptions {
  sensorAlertMode: SensorAlertMode;
  heartbeatTimeoutMs: number;
  now: Date;
  /** A DPU's own view: only that DPU's inputs, its merge overrides, never a replace. Default: the host's. */
  dpuId?: string;
}

/**
 * The input of `deriveAggregateHealth` for a host (or one of its DPUs) from its stored facts. Probe reports
 * (health_reports of any source but the sensor rollups) merge like merge overrides; a DPU's merge overrides
 * count for its host too, since the host cannot be healthier than the DPUs it depends on.
 */
export function assembleAggregateInput(
  facts: HostHealthFacts,
  options: AssembleOptions,
): AggregateHealthInput {
  const { snapshot } = facts;
  const scope = new Set(
    options.dpuId === undefined ? [snapshot.host.id, ...snapshot.dpus.map((d) => d.id)] : [options.dpuId],
  );
  const reports = facts.reports.filter((r) => scope.has(r.machineId)).map((r) => r.report);
  const merges = [...scope].flatMap((id) => Object.values(facts.overrides.get(id)?.merges ?? {}));
  const hostReplace =
    options.dpuId === undefined ? facts.overrides.get(snapshot.host.id)?.replace : undefined;
  const explorerFindings = explorerFindingsReport(facts.explored.filter((bmc) => scope.has(bmc.machineId)));
  const hostReports = snapshot.reports.get(snapshot.host.id);
  const validation =
    options.dpuId === undefined && hostReports?.validation_result
      ? validationReport(hostReports.validation_result, hostReports.validation_completed_at)
      : undefined;
  return {
    ...(hostReplace ? { hostReplace } : {}),
    hostMerges: [...reports.filter((r) => !isSensorSource(r.source)), ...merges],
    dpus: snapshot.dpus.filter((dpu) => scope.has(dpu.id)).map((dpu) => dpuInput(facts, dpu.id)),
    ...(explorerFindings ? { explorerFindings } : {}),
    sensorReports: reports.filter((r) => isSensorSource(r.source)),
    sensorAlertMode: options.sensorAlertMode,
    ...(validation ? { validation } : {}),
    now: options.now,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs,
  };
}

function dpuInput(facts: HostHealthFacts, dpuId: string): DpuHealthInput {
  const row = facts.snapshot.reports.get(dpuId);
  const status = row?.network_status ?? undefined;
  // The agent's report is as fresh as the status it came with, when it carries no time of its own.
  const agentReport: HealthReport | undefined = status
    ? { ...status.health, observedAt: status.health.observedAt ?? status.observedAt }
    : undefined;
  const lastReportAt = row?.network_status_at ?? undefined;
  return {
    id: dpuId,
    agentReport,
    ...(lastReportAt ? { lastReportAt } : {}),
    inDiscoveryOrInit: facts.dpusInBringUp,
  };
}
