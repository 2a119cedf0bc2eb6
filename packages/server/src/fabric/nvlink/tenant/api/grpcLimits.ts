import type { NvLinkHandlers } from "../../../../api/grpc/generated/racksmith/v1/NvLink.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../../../api/index.js";

/** `racksmith.v1.NvLink`: names, tenants and NMX-M paths, all within the defaults. */
export const NVLINK_LIMITS: ServiceLimits<NvLinkHandlers> = {
  CreateNvLinkPartition: DEFAULT_LIMITS,
  ListNvLinkPartitions: DEFAULT_LIMITS,
  GetNvLinkPartition: DEFAULT_LIMITS,
  DeleteNvLinkPartition: DEFAULT_LIMITS,
  BrowseNmxm: DEFAULT_LIMITS,
};
