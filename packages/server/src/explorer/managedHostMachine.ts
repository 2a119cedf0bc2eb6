import { defineStateMachine, doNothing, type StateMachine } from "@racksmith/core/engine";
import { MANAGED_HOST_OBJECT_TYPE, type MachineRow } from "./machineStore.js";

/** Where a new managed host starts; the managed-host lifecycle takes over from here. */
export const MANAGED_HOST_INITIAL_STATE = { state: "created" } as const;

type CreatedOnly = typeof MANAGED_HOST_INITIAL_STATE;

/** A stand-in lifecycle for the explorer's own tests: ingested hosts rest in `created`. */
export function managedHostMachine(): StateMachine<CreatedOnly, MachineRow> {
  return defineStateMachine<CreatedOnly, MachineRow>({
    objectType: MANAGED_HOST_OBJECT_TYPE,
    load: (id, db) => db.selectFrom("machines").selectAll().where("id", "=", id).executeTakeFirst(),
    handlers: { created: () => doNothing() },
  });
}
