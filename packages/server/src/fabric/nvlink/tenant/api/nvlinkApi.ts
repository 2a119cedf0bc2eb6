import { NotSupportedError } from "@racksmith/core";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import {
  type CreateLogicalPartitionInput,
  type LogicalPartitionService,
  type LogicalPartitionView,
  NvLinkNotConfiguredError,
} from "../partitions/index.js";

/** What the REST and gRPC APIs call; every call fails with `nvlink_not_configured` without `fabrics.nvlink`. */
export interface NvLinkApi {
  create(input: CreateLogicalPartitionInput): Promise<LogicalPartitionView>;
  list(query: { tenantOrg?: string | undefined }): Promise<LogicalPartitionView[]>;
  get(id: string): Promise<LogicalPartitionView>;
  delete(id: string): Promise<LogicalPartitionView>;
  browse(path: string): Promise<unknown>;
}

export function nvlinkApi(
  configured: { service: LogicalPartitionService; fabric: NvLinkFabric } | null,
): NvLinkApi {
  if (!configured) {
    const refuse = (): Promise<never> => Promise.reject(new NvLinkNotConfiguredError());
    return { create: refuse, list: refuse, get: refuse, delete: refuse, browse: refuse };
  }
  const { service, fabric } = configured;
  return {
    create: (input) => service.create(input),
    list: (query) => service.list(query),
    get: (id) => service.get(id),
    delete: (id) => service.delete(id),
    browse: async (path) => {
      if (!fabric.browse)
        throw new NotSupportedError("browse", `NVLink fabric ${fabric.name} has no raw view`);
      return fabric.browse(path);
    },
  };
}
