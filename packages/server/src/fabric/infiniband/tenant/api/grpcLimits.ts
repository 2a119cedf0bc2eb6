import type { InfiniBandHandlers } from "../../../../api/grpc/generated/racksmith/v1/InfiniBand.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../../../api/index.js";

/** `racksmith.v1.InfiniBand`: names, tenants, pkeys and UFM paths, all within the defaults. */
export const INFINIBAND_LIMITS: ServiceLimits<InfiniBandHandlers> = {
  CreateIbPartition: DEFAULT_LIMITS,
  GetIbPartition: DEFAULT_LIMITS,
  FindIbPartitions: DEFAULT_LIMITS,
  DeleteIbPartition: DEFAULT_LIMITS,
  UfmBrowse: DEFAULT_LIMITS,
};
