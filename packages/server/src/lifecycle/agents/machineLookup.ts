import type { MachineInventory } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import { MachineNotFoundError } from "../../explorer/errors.js";
import type { MachineKind } from "../../explorer/machineIds.js";
import { MANAGED_HOST_OBJECT_TYPE, type MachineRow } from "../../explorer/machineStore.js";
import type { ManagedHostState } from "../states.js";
import { MachineNotIdentifiedError } from "./errors.js";

type Db = Database["db"];

/** A machine and the managed host it belongs to (a host belongs to itself). */
export interface MachineWithHost {
  machine: MachineRow;
  hostId: string;
}

export async function findMachine(db: Db, id: string): Promise<MachineWithHost | undefined> {
  const machine = await db.selectFrom("machines").selectAll().where("id", "=", id).executeTakeFirst();
  return machine && { machine, hostId: machine.host_id ?? machine.id };
}

/** Like `findMachine`, but an unknown id is a NOT_FOUND error. */
export async function requireMachine(db: Db, id: string): Promise<MachineWithHost> {
  const found = await findMachine(db, id);
  if (!found) throw new MachineNotFoundError(id);
  return found;
}

/**
 * A managed host by id, for an operation on hosts only (`what` says which): an unknown id is NOT_FOUND, a
 * DPU's id an INVALID_ARGUMENT naming its host.
 */
export async function requireHostMachine(db: Db, id: string, what: string): Promise<MachineRow> {
  const { machine, hostId } = await requireMachine(db, id);
  if (machine.kind !== "host") {
    throw new InvalidArgumentError(`machine ${id} is a DPU of host ${hostId}: ${what}`, {
      details: { field: "machineId" },
    });
  }
  return machine;
}

/** A host's lifecycle state; undefined while it has no lifecycle object. */
export async function hostLifecycleState(db: Db, hostId: string): Promise<ManagedHostState | undefined> {
  const row = await db
    .selectFrom("state_objects")
    .select("state")
    .where("object_type", "=", MANAGED_HOST_OBJECT_TYPE)
    .where("object_id", "=", hostId)
    .executeTakeFirst();
  return row?.state as ManagedHostState | undefined;
}

/** The 12 hex digits of a MAC, upper case: how MACs are compared whatever their separators. */
function macDigits(mac: string): string | undefined {
  const hex = mac.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
  return hex.length === 12 ? hex : undefined;
}

/**
 * Which machine reported this inventory: the one whose serial it is (host or DPU), else the host of a DPU
 * whose host-facing MAC is one of the reported NICs (a host whose system serial the BMC reports differently).
 */
export async function identifyMachine(
  db: Db,
  inventory: Pick<MachineInventory, "serial" | "nics">,
): Promise<{ machineId: string; kind: MachineKind; hostId: string }> {
  if (inventory.serial) {
    const bySerial = await db
      .selectFrom("machines")
      .select(["id", "kind", "host_id"])
      // Every machine is one of the two kinds: naming both lets the (kind, serial) index find the serial (a
      // serial alone scanned every machine, at every boot of every agent).
      .where("kind", "in", ["host", "dpu"])
      .where("serial", "=", inventory.serial)
      // Should a host and a DPU ever carry the same serial, the host wins ("host" > "dpu").
      .orderBy("kind", "desc")
      .orderBy("id")
      .executeTakeFirst();
    if (bySerial) {
      return { machineId: bySerial.id, kind: bySerial.kind, hostId: bySerial.host_id ?? bySerial.id };
    }
  }
  const macs = [...new Set(inventory.nics.flatMap((nic) => macDigits(nic.mac) ?? []))];
  if (macs.length > 0) {
    const dpu = await dpusByHostFacingMac(db, macs).executeTakeFirst();
    if (dpu?.host_id) return { machineId: dpu.host_id, kind: "host", hostId: dpu.host_id };
  }
  throw new MachineNotIdentifiedError(
    inventory.serial,
    inventory.nics.map((nic) => nic.mac),
  );
}

/** The DPUs (of a host) whose host-facing MAC is one of `macs` (12 upper-case hex digits each), first id first. */
export function dpusByHostFacingMac(db: Db, macs: readonly string[]) {
  return (
    db
      .selectFrom("machines")
      .select(["id", "host_id"])
      .where("kind", "=", "dpu")
      .where("host_id", "is not", null)
      // The expression of the index machines_by_host_facing_mac (migration 0012), as it is written there.
      .where(sql<string>`upper(regexp_replace(host_facing_mac, '[^0-9A-Fa-f]', '', 'g'))`, "in", [...macs])
      .orderBy("id")
  );
}
