export {
  LogicalPartitionInUseError,
  LogicalPartitionNotFoundError,
  NvLinkNotConfiguredError,
} from "./errors.js";
export {
  type CreateLogicalPartitionInput,
  instancesUsing,
  LogicalPartitionService,
} from "./logicalPartitionService.js";
export type { LogicalPartitionState, LogicalPartitionView, PhysicalPartitionView } from "./partitionView.js";
