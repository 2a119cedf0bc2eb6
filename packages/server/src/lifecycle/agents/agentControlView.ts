import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import { MachineNotFoundError } from "../../explorer/errors.js";
import type { MachineKind } from "../../explorer/machineIds.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/machineStore.js";
import type { ManagedHostState } from "../states.js";
import type { AgentActionInput } from "./agentAction.js";

/** What AgentControl decides from: the machine, its host's lifecycle state and the host's reports. */
export interface AgentControlView {
  machineId: string;
  kind: MachineKind;
  /** Absent while the host has no lifecycle object. */
  host: { state: ManagedHostState; enteredAt: Date } | undefined;
  reports: AgentActionInput["reports"];
}

/**
 * Reads an AgentControl poll's inputs in one statement (every host agent asks on every poll). An unknown
 * machine is a `MachineNotFoundError`.
 */
export async function readAgentControlView(db: Database["db"], machineId: string): Promise<AgentControlView> {
  const hostId = sql<string>`coalesce(machine.host_id, machine.id)`;
  const row = await db
    .selectFrom("machines as machine")
    .leftJoin("state_objects as host", (join) =>
      join.on("host.object_type", "=", MANAGED_HOST_OBJECT_TYPE).on("host.object_id", "=", hostId),
    )
    .leftJoin("machine_reports as reports", (join) => join.on("reports.machine_id", "=", hostId))
    .select([
      "machine.id",
      "machine.kind",
      "host.state",
      "host.state_entered_at",
      "reports.machine_id as reported_by",
      "reports.discovery_completed_at",
      "reports.cleanup_completed_at",
      "reports.validation_completed_at",
    ])
    .where("machine.id", "=", machineId)
    .executeTakeFirst();
  if (!row) throw new MachineNotFoundError(machineId);
  return {
    machineId: row.id,
    kind: row.kind,
    host:
      row.state === null || row.state_entered_at === null
        ? undefined
        : { state: row.state as unknown as ManagedHostState, enteredAt: row.state_entered_at },
    reports:
      row.reported_by === null
        ? undefined
        : {
            discovery_completed_at: row.discovery_completed_at,
            cleanup_completed_at: row.cleanup_completed_at,
            validation_completed_at: row.validation_completed_at,
          },
  };
}
