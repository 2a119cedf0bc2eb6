import {
  HEALTH_CLASSIFICATIONS,
  HEALTH_PROBE_IDS,
  HEALTH_SOURCES,
  type HealthReport,
  mergeHealthReports,
} from "@racksmith/core/health";

/** How BMC sensor rollups count: ignored (default), shown without effect, or acted on. */
export type SensorAlertMode = "disabled" | "monitorOnly" | "enabled";

export interface DpuHealthInput {
  /** The DPU's machine id (named in the heartbeat alert). */
  id: string;
  /** The last report of the DPU's agent; undefined when it never reported. */
  agentReport: HealthReport | undefined;
  /** When the agent last reported (default: the report's `observedAt`). */
  lastReportAt?: Date;
  /** DPU discovery or initialisation: its agent is not expected to be healthy yet. */
  inDiscoveryOrInit: boolean;
}

export interface AggregateHealthInput {
  /** The host's replace override: when present it is the aggregate, and nothing else is looked at. */
  hostReplace?: HealthReport;
  /** The host's merge overrides. */
  hostMerges: readonly HealthReport[];
  dpus: readonly DpuHealthInput[];
  /** What the site explorer found (BmcExplorationFailure, PoweredOff, SerialNumberMismatch). */
  explorerFindings?: HealthReport;
  /** BMC sensor rollups (`hardware-health.*`). */
  sensorReports: readonly HealthReport[];
  sensorAlertMode: SensorAlertMode;
  /** The latest validation result as a report. */
  validation?: HealthReport;
  now: Date;
  /** An agent report older than this counts as missing. */
  heartbeatTimeoutMs: number;
}

/**
 * The health of a managed host (NICo's `derive_aggregate_health`), source `aggregate-host-health`: the host's
 * replace override if it has one, else the merge of its DPUs' agent reports, site-explorer findings, sensor
 * rollups (per `sensorAlertMode`), validation and merge overrides. Pure: computed whenever it is asked for.
 */
export function deriveAggregateHealth(input: AggregateHealthInput): HealthReport {
  if (input.hostReplace) return { ...input.hostReplace, source: HEALTH_SOURCES.aggregate };
  const reports: HealthReport[] = [
    ...input.dpus.flatMap((dpu) => dpuReports(dpu, input.now, input.heartbeatTimeoutMs)),
    ...(input.explorerFindings ? [input.explorerFindings] : []),
    ...sensorReports(input.sensorReports, input.sensorAlertMode),
    ...(input.validation ? [input.validation] : []),
    ...input.hostMerges,
  ];
  return mergeHealthReports(reports, { source: HEALTH_SOURCES.aggregate });
}

/**
 * A DPU's agent report, plus a `HeartbeatTimeout` when it is missing or stale: without a live agent the DPU
 * applies no configuration, so the host must neither be allocated nor move on. While the DPU is being
 * discovered or initialised its agent is not up yet, so its alerts are kept for operators but block nothing.
 */
function dpuReports(dpu: DpuHealthInput, now: Date, timeoutMs: number): HealthReport[] {
  const reports: HealthReport[] = dpu.agentReport ? [dpu.agentReport] : [];
  const heartbeat = heartbeatTimeout(dpu, now, timeoutMs);
  if (heartbeat) reports.push(heartbeat);
  return dpu.inDiscoveryOrInit ? reports.map(withoutClassifications) : reports;
}

function heartbeatTimeout(dpu: DpuHealthInput, now: Date, timeoutMs: number): HealthReport | undefined {
  const observed = dpu.agentReport?.observedAt;
  const lastMs = dpu.lastReportAt?.getTime() ?? (observed !== undefined ? Date.parse(observed) : undefined);
  if (dpu.agentReport && lastMs !== undefined && now.getTime() - lastMs <= timeoutMs) return undefined;
  const message =
    lastMs === undefined || !dpu.agentReport
      ? `DPU ${dpu.id}: no health report from ${HEALTH_SOURCES.dpuAgent}`
      : `DPU ${dpu.id}: last health report from ${HEALTH_SOURCES.dpuAgent} at ${new Date(lastMs).toISOString()}`;
  return {
    source: HEALTH_SOURCES.dpuAgent,
    observedAt: now.toISOString(),
    successes: [],
    alerts: [
      {
        id: HEALTH_PROBE_IDS.heartbeatTimeout,
        target: HEALTH_SOURCES.dpuAgent,
        // Stale: the alert began when the heartbeat expired. Missing: unknown, left to the caller to stamp.
        ...(dpu.agentReport && lastMs !== undefined
          ? { inAlertSince: new Date(lastMs + timeoutMs).toISOString() }
          : {}),
        message,
        classifications: [
          HEALTH_CLASSIFICATIONS.preventAllocations,
          HEALTH_CLASSIFICATIONS.preventHostStateChanges,
        ],
      },
    ],
  };
}

function sensorReports(reports: readonly HealthReport[], mode: SensorAlertMode): readonly HealthReport[] {
  if (mode === "disabled") return [];
  return mode === "monitorOnly" ? reports.map(withoutClassifications) : reports;
}

function withoutClassifications(report: HealthReport): HealthReport {
  return { ...report, alerts: report.alerts.map((alert) => ({ ...alert, classifications: [] })) };
}
