import type { HealthReport } from "@racksmith/core/health";
import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import type { ExplorationFailure } from "../../explorer/explorationFailure.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import { loadManagedHost, type ManagedHostSnapshot } from "../../lifecycle/machine/snapshot.js";
import { emptyHealthOverrides, type HealthOverrides } from "../overrides.js";
import type { ExploredBmcFacts } from "./explorerAlerts.js";
import "./tables.js";

/** Lifecycle states in which a host's DPU agents are not expected to be up yet. */
const DPU_BRING_UP_STATES: ReadonlySet<string> = new Set(["created", "dpuDiscovering", "dpuInit"]);

/** Everything the aggregate health of one managed host is derived from, read in a few queries. */
export interface HostHealthFacts {
  snapshot: ManagedHostSnapshot;
  /** The host's DPUs are being discovered or initialised (or it has no lifecycle object yet). */
  dpusInBringUp: boolean;
  explored: ExploredBmcFacts[];
  /** health_reports rows of the host and its DPUs. */
  reports: { machineId: string; report: HealthReport }[];
  /** Overrides per machine id (host and DPUs); a machine without a row has none. */
  overrides: ReadonlyMap<string, HealthOverrides>;
}

/** Loads a host's health facts; undefined when no host has this id. */
export async function gatherHostHealth(
  database: Database,
  hostId: string,
): Promise<HostHealthFacts | undefined> {
  const { db } = database;
  const snapshot = await loadManagedHost(hostId, db);
  if (!snapshot) return undefined;
  const machines = [snapshot.host, ...snapshot.dpus];
  const ids = machines.map((m) => m.id);
  const addresses = [...new Set(machines.map((m) => m.bmc_address))];
  // One statement for all four (each a JSON aggregate), so an aggregate's recomputation is two round trips.
  const { rows } = await sql<GatheredRow>`
    select
      (select s.state from state_objects s
        where s.object_type = ${MANAGED_HOST_OBJECT_TYPE} and s.object_id = ${hostId}) as state,
      (select coalesce(jsonb_agg(jsonb_build_object(
          'address', e.address, 'last_error', e.last_error, 'findings', e.findings,
          'last_explored_at', e.last_explored_at,
          -- Only the power states, not the whole (large) exploration report.
          'power_states', jsonb_path_query_array(e.report, '$.systems[*].powerState'))), '[]'::jsonb)
        from explored_endpoints e where e.address in (${sql.join(addresses)})) as endpoints,
      (select coalesce(jsonb_agg(jsonb_build_object('machine_id', h.machine_id, 'report', h.report)
          order by h.machine_id, h.source), '[]'::jsonb)
        from health_reports h where h.machine_id in (${sql.join(ids)})) as reports,
      (select coalesce(jsonb_agg(jsonb_build_object('machine_id', o.machine_id, 'overrides', o.overrides)),
          '[]'::jsonb)
        from machine_health o where o.machine_id in (${sql.join(ids)})) as overrides
  `.execute(db);
  const { state, endpoints, reports, overrides } = rows[0] as GatheredRow;
  const tag = state ? String((state as { state?: unknown }).state) : undefined;
  const byAddress = new Map(endpoints.map((e) => [e.address, e]));
  return {
    snapshot,
    dpusInBringUp: tag === undefined || DPU_BRING_UP_STATES.has(tag),
    explored: machines.flatMap((machine) => {
      const endpoint = byAddress.get(machine.bmc_address);
      if (!endpoint) return [];
      return [
        {
          machineId: machine.id,
          kind: machine.kind === "dpu" ? ("dpu" as const) : ("host" as const),
          address: machine.bmc_address,
          lastError: endpoint.last_error as ExplorationFailure | null,
          findings: endpoint.findings ?? [],
          systemPowerStates: (endpoint.power_states ?? []).filter((s): s is string => typeof s === "string"),
          lastExploredAt: endpoint.last_explored_at === null ? null : new Date(endpoint.last_explored_at),
          lastPowerActionAt: lastPowerAction(snapshot.reports.get(machine.id)?.last_reboot_request?.at),
        },
      ];
    }),
    reports: reports.map((row) => ({ machineId: row.machine_id, report: row.report })),
    overrides: new Map(overrides.map((row) => [row.machine_id, row.overrides ?? emptyHealthOverrides()])),
  };
}

/** The gathering statement's one row; its JSON aggregates' times are text. */
interface GatheredRow {
  state: unknown;
  endpoints: Array<{
    address: string;
    last_error: unknown;
    findings: ExploredBmcFacts["findings"] | null;
    last_explored_at: string | null;
    power_states: unknown[] | null;
  }>;
  reports: Array<{ machine_id: string; report: HealthReport }>;
  overrides: Array<{ machine_id: string; overrides: HealthOverrides | null }>;
}

function lastPowerAction(at: string | undefined): Date | null {
  return at ? new Date(at) : null;
}
