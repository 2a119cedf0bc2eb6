import {
  HEALTH_CLASSIFICATIONS,
  HEALTH_PROBE_IDS,
  HEALTH_SOURCES,
  type HealthProbeAlert,
  type HealthReport,
} from "@racksmith/core/health";
import type { ExplorationFailure } from "../../explorer/explorationFailure.js";
import type { EndpointFinding } from "../../explorer/findings.js";

/** What the site explorer last stored about one BMC of a managed host (host or DPU). */
export interface ExploredBmcFacts {
  machineId: string;
  kind: "host" | "dpu";
  address: string;
  lastError: ExplorationFailure | null;
  findings: readonly EndpointFinding[];
  /** The power state of each system in the last report (empty when there is no report). */
  systemPowerStates: readonly string[];
  lastExploredAt: Date | null;
  /** When the lifecycle last powered the machine on, off or restarted it (null: never). */
  lastPowerActionAt?: Date | null;
}

// A host the explorer cannot vouch for (unreachable, off, not the machine ordered) must not go to a tenant.
const BLOCKS = [HEALTH_CLASSIFICATIONS.preventAllocations];

/**
 * The site-explorer report of a managed host (NICo's `site-explorer` source): `BmcExplorationFailure` per BMC
 * whose last exploration failed, `SerialNumberMismatch` per mismatch finding (both targeted at the BMC
 * address, so a host's and a DPU's stay apart), and `PoweredOff` when the host's BMC reports a system Off
 * (a DPU's power follows its host's, so only the host counts). Undefined when there is nothing to say.
 */
export function explorerFindingsReport(bmcs: readonly ExploredBmcFacts[]): HealthReport | undefined {
  const alerts: HealthProbeAlert[] = bmcs.flatMap(bmcAlerts);
  if (alerts.length === 0) return undefined;
  const times = bmcs.flatMap((bmc) => (bmc.lastExploredAt ? [bmc.lastExploredAt.getTime()] : []));
  return {
    source: HEALTH_SOURCES.siteExplorer,
    ...(times.length > 0 ? { observedAt: new Date(Math.min(...times)).toISOString() } : {}),
    successes: [],
    alerts,
  };
}

function bmcAlerts(bmc: ExploredBmcFacts): HealthProbeAlert[] {
  const alerts: HealthProbeAlert[] = [];
  const what = `${bmc.kind === "host" ? "host" : "DPU"} ${bmc.machineId} (BMC ${bmc.address})`;
  if (bmc.lastError) {
    alerts.push({
      id: HEALTH_PROBE_IDS.bmcExplorationFailure,
      target: bmc.address,
      message: `${what}: exploration failed (${bmc.lastError.code}): ${bmc.lastError.message}`,
      classifications: [...BLOCKS],
    });
  }
  for (const finding of bmc.findings) {
    if (finding.code !== "SerialNumberMismatch") continue;
    alerts.push({
      id: HEALTH_PROBE_IDS.serialNumberMismatch,
      target: bmc.address,
      message: `${what}: ${finding.message}`,
      classifications: [...BLOCKS],
    });
  }
  // A report taken before the lifecycle's last power action (a power cycle it ran) says nothing about now.
  const powerStale =
    bmc.lastPowerActionAt != null &&
    (bmc.lastExploredAt === null || bmc.lastExploredAt.getTime() <= bmc.lastPowerActionAt.getTime());
  if (bmc.kind === "host" && !powerStale && bmc.systemPowerStates.includes("Off")) {
    alerts.push({
      id: HEALTH_PROBE_IDS.poweredOff,
      target: bmc.address,
      message: `${what}: the BMC reports the system powered off`,
      classifications: [...BLOCKS],
    });
  }
  return alerts;
}
