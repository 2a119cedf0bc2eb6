import { defineStateMachine, doNothing, type StateMachine } from "../state/index.js";
import { MANAGED_HOST_OBJECT_TYPE, type MachineRow } from "./machineStore.js";

/** Where a new managed host starts; the lifecycle (a later issue) takes over from here. */
export type ManagedHostState = { state: "created" };

export const MANAGED_HOST_INITIAL_STATE: ManagedHostState = { state: "created" };

/** A placeholder lifecycle: ingested hosts rest in `created` until the managed-host lifecycle replaces it. */
export function managedHostMachine(): StateMachine<ManagedHostState, MachineRow> {
  return defineStateMachine<ManagedHostState, MachineRow>({
    objectType: MANAGED_HOST_OBJECT_TYPE,
    load: (id, db) => db.selectFrom("machines").selectAll().where("id", "=", id).executeTakeFirst(),
    handlers: { created: () => doNothing() },
  });
}
