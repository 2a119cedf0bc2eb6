export { type IbPartitionObject, ibPartitionMachine } from "./machine.js";
export {
  type CreateIbPartitionInput,
  IbPartitionService,
  type IbPartitionServiceDeps,
  type IbPartitionView,
} from "./service.js";
export { IB_PARTITION_OBJECT_TYPE, type IbPartitionState, ibPartitionStateName } from "./states.js";
export { type IbPartitionRow, liveInstances, partitionUsers, readPartitions } from "./store.js";
