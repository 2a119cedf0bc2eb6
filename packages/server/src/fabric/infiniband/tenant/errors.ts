import { RacksmithError } from "@racksmith/core";
import { formatPkey, type Pkey } from "@racksmith/core/infiniband";
import { excerpt } from "../../../api/index.js";

/** Every InfiniBand tenant API call while `fabrics.infiniband` is absent. */
export class InfiniBandNotConfiguredError extends RacksmithError {
  constructor() {
    super(
      "infiniband_not_configured",
      "FAILED_PRECONDITION",
      "InfiniBand is not configured (fabrics.infiniband): add the section and a fabric plugin such as @racksmith/fabric-ufm",
    );
  }
}

export class IbPartitionNotFoundError extends RacksmithError {
  constructor(readonly partitionId: string) {
    super("ib_partition_not_found", "NOT_FOUND", `no InfiniBand partition ${excerpt(partitionId)}`, {
      details: { partitionId },
    });
  }
}

/** A partition cannot be deleted while a live instance configures an interface in it. */
export class IbPartitionInUseError extends RacksmithError {
  constructor(
    readonly partitionId: string,
    readonly instanceIds: readonly string[],
  ) {
    super(
      "ib_partition_in_use",
      "FAILED_PRECONDITION",
      `InfiniBand partition ${partitionId} is used by instance(s) ${instanceIds.join(", ")}; release them or remove the partition from their config first`,
      { details: { partitionId, instanceIds: [...instanceIds] } },
    );
  }
}

export class PkeyPoolExhaustedError extends RacksmithError {
  constructor(ranges: string) {
    super(
      "pkey_pool_exhausted",
      "RESOURCE_EXHAUSTED",
      `no free pkey left in the configured ranges (${ranges})`,
    );
  }
}

export class PkeyTakenError extends RacksmithError {
  constructor(readonly pkey: Pkey) {
    super("pkey_taken", "ALREADY_EXISTS", `pkey: ${formatPkey(pkey)} is already used by another partition`, {
      details: { field: "pkey", pkey: formatPkey(pkey) },
    });
  }
}

export class TooManyIbPartitionsError extends RacksmithError {
  constructor(tenantOrg: string, max: number) {
    super(
      "ib_partition_limit",
      "INVALID_ARGUMENT",
      `tenantOrg: tenant ${excerpt(tenantOrg)} already has ${max} InfiniBand partitions (fabrics.infiniband.maxPartitionsPerTenant)`,
      { details: { field: "tenantOrg", tenantOrg, max } },
    );
  }
}
