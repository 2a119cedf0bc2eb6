import { hasErrorCode } from "@racksmith/core";
import {
  defineStateMachine,
  deleted,
  doNothing,
  type HandlerContext,
  type StateMachine,
  transition,
  wait,
} from "@racksmith/core/engine";
import type { InfiniBandFabric } from "@racksmith/core/infiniband";
import { formatPkey, sameInfiniBandQos } from "@racksmith/core/infiniband";
import { IB_PARTITION_OBJECT_TYPE, type IbPartitionState } from "./states.js";
import { type IbPartitionRow, partitionUsers, readPartition } from "./store.js";

/**
 * The IB partition on the engine. Provisioning → Ready at once (the pkey was allocated at create; a UFM
 * partition only exists once a GUID is bound). Ready keeps UFM's QoS equal to the configured one; a refusal
 * moves to Error with its cause. Deleting unbinds whatever is left in the pkey, waits for users to go, then
 * removes the row, which frees the pkey.
 */
export function ibPartitionMachine(
  fabric: () => InfiniBandFabric,
): StateMachine<IbPartitionState, IbPartitionObject> {
  return defineStateMachine<IbPartitionState, IbPartitionObject>({
    objectType: IB_PARTITION_OBJECT_TYPE,
    load: async (id, db) => {
      const row = await readPartition(db, id);
      return row && { ...row, users: row.deleted_at ? await partitionUsers(db, id) : [] };
    },
    handlers: {
      provisioning: ({ object }) =>
        object.deleted_at ? transition({ state: "deleting" }) : transition({ state: "ready" }),
      ready: async ({ object, context }) => {
        if (object.deleted_at) return transition({ state: "deleting" });
        const cause = await applyQos(fabric(), object, context);
        return cause ? transition({ state: "error", cause }) : doNothing();
      },
      error: async ({ object, context }) => {
        if (object.deleted_at) return transition({ state: "deleting" });
        const cause = await applyQos(fabric(), object, context);
        return cause ? wait(`retrying: ${cause}`) : transition({ state: "ready" });
      },
      deleting: async ({ object, context }) => {
        const ib = fabric();
        const members = await membersOf(ib, object, context);
        if (members.length > 0) {
          await ib.unbindGuids(object.pkey, members, { signal: context.signal });
          return wait(`unbinding ${members.length} GUID(s) from pkey ${formatPkey(object.pkey)}`);
        }
        const users = object.users;
        if (users.length > 0) return wait(`instance(s) ${users.join(", ")} still use the partition`);
        context.defer(async (trx) => {
          await trx.deleteFrom("ib_partitions").where("id", "=", object.id).execute();
        });
        return deleted();
      },
    },
    stateLabel: (state) => state.state,
  });
}

/** The row, and (once deleted) the live instances still using it. */
export type IbPartitionObject = IbPartitionRow & { users: string[] };

/** QoS drift corrected; the cause when UFM refuses (a partition UFM does not have yet is fine). */
async function applyQos(
  fabric: InfiniBandFabric,
  partition: IbPartitionRow,
  context: HandlerContext<IbPartitionState>,
): Promise<string | undefined> {
  try {
    const found = await fabric.getPartition(partition.pkey, { qos: true, signal: context.signal });
    if (found.qos && !sameInfiniBandQos(found.qos, fabric.settings.qos))
      await fabric.updateQos(partition.pkey, fabric.settings.qos, { signal: context.signal });
    return undefined;
  } catch (error) {
    if (hasErrorCode(error, "fabric_not_found")) return undefined;
    if (hasErrorCode(error, "fabric_rejected") || hasErrorCode(error, "invalid_argument"))
      return (error as Error).message;
    throw error;
  }
}

async function membersOf(
  fabric: InfiniBandFabric,
  partition: IbPartitionRow,
  context: HandlerContext<IbPartitionState>,
): Promise<string[]> {
  try {
    const found = await fabric.getPartition(partition.pkey, { guids: true, signal: context.signal });
    return (found.members ?? []).map((member) => member.guid);
  } catch (error) {
    if (hasErrorCode(error, "fabric_not_found")) return [];
    throw error;
  }
}
