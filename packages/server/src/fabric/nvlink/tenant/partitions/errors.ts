import { RacksmithError } from "@racksmith/core";
import { excerpt } from "../../../../api/index.js";

export class LogicalPartitionNotFoundError extends RacksmithError {
  constructor(readonly logicalPartitionId: string) {
    super(
      "nvlink_partition_not_found",
      "NOT_FOUND",
      `no NVLink logical partition ${excerpt(logicalPartitionId)}`,
      {
        details: { logicalPartitionId },
      },
    );
  }
}

/** Deleting a logical partition a live instance still puts GPUs in. */
export class LogicalPartitionInUseError extends RacksmithError {
  constructor(
    readonly logicalPartitionId: string,
    readonly instanceIds: readonly string[],
  ) {
    super(
      "nvlink_partition_in_use",
      "FAILED_PRECONDITION",
      `NVLink logical partition ${logicalPartitionId} is used by instance(s) ${instanceIds.join(", ")}; release them or change their nvlink config first`,
      { details: { logicalPartitionId, instanceIds: [...instanceIds] } },
    );
  }
}

/** Any NVLink call while `fabrics.nvlink` is absent. */
export class NvLinkNotConfiguredError extends RacksmithError {
  constructor() {
    super(
      "nvlink_not_configured",
      "FAILED_PRECONDITION",
      "NVLink is not configured (fabrics.nvlink): add the section and a fabric plugin such as @racksmith/fabric-nmxm",
    );
  }
}
