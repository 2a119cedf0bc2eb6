import { NotSupportedError } from "@racksmith/core";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import {
  type CreateLogicalPartitionInput,
  type LogicalPartitionService,
  type LogicalPartitionView,
  NvLinkNotConfiguredError,
} from "../partitions/index.js";

/**
 * What the REST and gRPC APIs call; every call fails with `nvlink_not_configured` without `fabrics.nvlink`.
 * `scope` is the tenant org a tenant caller is limited to: other orgs' partitions do not exist for it.
 */
export interface NvLinkApi {
  create(input: CreateLogicalPartitionInput, scope?: string): Promise<LogicalPartitionView>;
  list(query: { tenantOrg?: string | undefined }, scope?: string): Promise<LogicalPartitionView[]>;
  get(id: string, scope?: string): Promise<LogicalPartitionView>;
  delete(id: string, scope?: string): Promise<LogicalPartitionView>;
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
    create: (input, scope) => service.create(input, scope),
    list: (query, scope) => service.list(query, scope),
    get: (id, scope) => service.get(id, scope),
    delete: (id, scope) => service.delete(id, scope),
    browse: async (path) => {
      if (!fabric.browse)
        throw new NotSupportedError("browse", `NVLink fabric ${fabric.name} has no raw view`);
      return fabric.browse(path);
    },
  };
}
