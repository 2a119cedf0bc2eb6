import { type Kysely, sql } from "kysely";
import type { Registry } from "prom-client";
import type { RacksmithDatabase } from "../../db/index.js";
import type { ResolvedLifecycleConfig } from "../config.js";
import type { RebootRequest } from "../tables.js";
import { OverloadHistory } from "./overloadHistory.js";
import { RebootGovernor } from "./rebootGovernor.js";
import { ServiceLoadMonitor } from "./serviceLoadMonitor.js";

/** The lifecycle's reboot governor with what feeds it: the load monitor, metrics, readiness. */
export interface RebootGovernance {
  readonly governor: RebootGovernor;
  /** Seeds the caps' windows from the database and starts counting in the metrics. */
  bind(db: Kysely<RacksmithDatabase>, metrics: Registry): Promise<void>;
  start(): void;
  stop(): void;
  readiness(): { name: string; ok: boolean; detail: string };
}

export function createRebootGovernance(config: ResolvedLifecycleConfig): RebootGovernance {
  const history = new OverloadHistory();
  const governor = new RebootGovernor(config, history);
  let monitor: ServiceLoadMonitor | undefined;
  return {
    governor,
    async bind(db, metrics) {
      governor.bindMetrics(metrics);
      governor.seed(await recentRebootTimes(db, Math.max(60_000, config.rebootSettleMs)));
      monitor = new ServiceLoadMonitor({
        probe: async () => void (await sql`select 1`.execute(db)),
        thresholds: {
          databaseLatencyMs: config.pauseRebootsAboveDatabaseLatencyMs,
          eventLoopDelayMs: config.pauseRebootsAboveEventLoopDelayMs,
        },
        history,
      });
    },
    start: () => monitor?.start(),
    stop: () => monitor?.stop(),
    // Informational: a held reboot or a paused timer is the service protecting the site, not a fault.
    readiness() {
      const { holding } = governor.stats();
      const overloaded = governor.overloaded();
      const parts = [
        holding > 0 ? `a site-wide cap held back reboots of ${holding} machines in the last minute` : "",
        overloaded ? `reboot timers paused: ${overloaded}` : "",
      ].filter(Boolean);
      return { name: "reboots", ok: true, detail: parts.join("; ") || "no reboot held back or paused" };
    },
  };
}

/** When the reboots the lifecycle ordered within the window were accepted (any replica, any run). */
async function recentRebootTimes(db: Kysely<RacksmithDatabase>, windowMs: number): Promise<Date[]> {
  const rows = await db
    .selectFrom("machine_reports")
    .select("last_reboot_request")
    .where("updated_at", ">", new Date(Date.now() - windowMs))
    .where("last_reboot_request", "is not", null)
    .execute();
  return rows.flatMap((row) => {
    const request = row.last_reboot_request as RebootRequest | null;
    const at = request && request.action !== "On" ? Date.parse(request.at) : Number.NaN;
    return Number.isFinite(at) && at > Date.now() - windowMs ? [new Date(at)] : [];
  });
}
