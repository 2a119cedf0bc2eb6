import type { ValidationResult } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { Database } from "../../../db/index.js";
import type { ExplorationFailure } from "../../../explorer/explorationFailure.js";
import type { EndpointFinding } from "../../../explorer/findings.js";

/** Records a DPU agent's network status (and its health report) received at `at`. */
export async function reportDpuAgent(
  database: Database,
  dpuId: string,
  at: Date,
  health: Partial<HealthReport> = {},
): Promise<void> {
  const observation = JSON.stringify({
    observedAt: at.toISOString(),
    appliedManagedHostConfigVersion: 1,
    appliedInstanceConfigVersion: null,
    interfaces: [],
    health: { source: "forge-dpu-agent", successes: [], alerts: [], ...health },
    agentVersion: "1",
  });
  await database.db
    .insertInto("machine_reports")
    .values({ machine_id: dpuId, network_status: observation, network_status_at: at, updated_at: at })
    .onConflict((c) =>
      c
        .column("machine_id")
        .doUpdateSet({ network_status: observation, network_status_at: at, updated_at: at }),
    )
    .execute();
}

/** Records the host's last validation result. */
export async function reportValidation(
  database: Database,
  hostId: string,
  at: Date,
  result: ValidationResult,
): Promise<void> {
  const value = JSON.stringify(result);
  await database.db
    .insertInto("machine_reports")
    .values({ machine_id: hostId, validation_result: value, validation_completed_at: at, updated_at: at })
    .onConflict((c) =>
      c
        .column("machine_id")
        .doUpdateSet({ validation_result: value, validation_completed_at: at, updated_at: at }),
    )
    .execute();
}

/** What the site explorer stored about a BMC: its last error, findings and systems' power states. */
export async function exploreEndpoint(
  database: Database,
  address: string,
  at: Date,
  facts: { lastError?: ExplorationFailure; findings?: EndpointFinding[]; powerStates?: string[] },
): Promise<void> {
  const report = facts.powerStates
    ? JSON.stringify({
        systems: facts.powerStates.map((powerState, i) => ({ id: `System.${i}`, powerState })),
      })
    : null;
  await database.db
    .insertInto("explored_endpoints")
    .values({
      address,
      report,
      last_error: facts.lastError ? JSON.stringify(facts.lastError) : null,
      findings: JSON.stringify(facts.findings ?? []),
      last_explored_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
