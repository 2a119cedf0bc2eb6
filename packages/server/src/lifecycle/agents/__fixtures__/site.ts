import {
  defineStateMachine,
  doNothing,
  type StateEngine,
  type StateHandler,
  type TaggedState,
} from "@racksmith/core/engine";
import { sql } from "kysely";
import { createRestServer, type RestRoutes } from "../../../api/index.js";
import type { Database } from "../../../db/index.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../../explorer/machineStore.js";
import { fakeApiContext, harnessGate } from "../../../testing/index.js";
import { MANAGED_HOST_STATE_TAGS, type ManagedHostState } from "../../states.js";

/** A managed-host machine whose handlers never move anything: tests place hosts in states by hand. */
export function parkedManagedHostMachine() {
  const handlers = Object.fromEntries(
    MANAGED_HOST_STATE_TAGS.map((tag) => [
      tag,
      (() => doNothing()) as StateHandler<TaggedState, unknown, string>,
    ]),
  ) as { [K in ManagedHostState["state"]]: StateHandler<ManagedHostState, unknown, K> };
  return defineStateMachine<ManagedHostState, unknown>({
    objectType: MANAGED_HOST_OBJECT_TYPE,
    load: async () => ({}),
    handlers,
  });
}

export interface TestDpu {
  id: string;
  serial?: string;
  hostFacingMac: string;
  primary?: boolean;
}

const mac = (seed: string) => {
  let hash = 0;
  for (const ch of seed) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `02:00:${[hash >>> 24, (hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join(":")
    .toUpperCase()}`;
};

/** Inserts a host row and its DPUs' rows (no lifecycle object: see `placeHost`). */
export async function insertHost(
  database: Database,
  host: { id: string; serial?: string; bmcMac?: string; dpus?: TestDpu[] },
): Promise<void> {
  const now = new Date();
  await database.db
    .insertInto("machines")
    .values([
      {
        id: host.id,
        kind: "host",
        serial: host.serial ?? `SER-${host.id}`,
        bmc_address: "10.0.0.1",
        bmc_mac: host.bmcMac ?? mac(host.id),
        host_id: null,
        host_facing_mac: null,
        primary_dpu: false,
        vendor: null,
        model: null,
        created_at: now,
      },
      ...(host.dpus ?? []).map((dpu) => ({
        id: dpu.id,
        kind: "dpu" as const,
        serial: dpu.serial ?? `SER-${dpu.id}`,
        bmc_address: "10.0.0.2",
        bmc_mac: mac(dpu.id),
        host_id: host.id,
        host_facing_mac: dpu.hostFacingMac,
        primary_dpu: dpu.primary ?? false,
        vendor: null,
        model: null,
        created_at: now,
      })),
    ])
    .execute();
}

/** Puts the host's lifecycle object in `state` (creating it if needed), entered at `enteredAt`. */
export async function placeHost(
  engine: StateEngine,
  database: Database,
  hostId: string,
  state: ManagedHostState,
  enteredAt: Date = new Date(),
): Promise<void> {
  const existing = await engine.getObjectState(MANAGED_HOST_OBJECT_TYPE, hostId, { historyLimit: 0 });
  if (!existing) await engine.createObject(MANAGED_HOST_OBJECT_TYPE, hostId, state);
  await sql`UPDATE state_objects SET state = ${JSON.stringify(state)}::jsonb,
    state_entered_at = ${enteredAt.toISOString()}::timestamptz
    WHERE object_type = ${MANAGED_HOST_OBJECT_TYPE} AND object_id = ${hostId}`.execute(database.db);
}

/** Empties every table the lifecycle APIs touch, between tests. */
export async function clearSite(database: Database): Promise<void> {
  const { db } = database;
  await db.deleteFrom("instances").execute();
  await db.deleteFrom("machine_reports").execute();
  await db.deleteFrom("managed_hosts").execute();
  await db.deleteFrom("machines").execute();
  await db.deleteFrom("expected_machines").execute();
  await sql`DELETE FROM state_queue`.execute(db);
  await sql`DELETE FROM state_history`.execute(db);
  await sql`DELETE FROM state_objects`.execute(db);
}

/** The REST routes over a fake API context, not listening: send them requests with `inject`. */
export function startRest(routes: RestRoutes[]) {
  return createRestServer(fakeApiContext(), routes, { gate: harnessGate() });
}
