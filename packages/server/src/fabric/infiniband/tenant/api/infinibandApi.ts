import type { IbFabricHealth } from "../monitor/index.js";
import type { CreateIbPartitionInput, IbPartitionView } from "../partitions/index.js";

/**
 * What the REST and gRPC APIs call: the configured fabric's, or one refusing everything when it is absent.
 * `scope` is the tenant org a tenant caller is limited to (`tenantScopeOf`): other orgs' partitions do not
 * exist for it.
 */
export interface InfiniBandApi {
  createPartition(input: CreateIbPartitionInput, scope?: string): Promise<IbPartitionView>;
  listPartitions(filter: { tenantOrg?: string }, scope?: string): Promise<IbPartitionView[]>;
  getPartition(id: string, scope?: string): Promise<IbPartitionView>;
  deletePartition(id: string, scope?: string): Promise<IbPartitionView>;
  /** The monitor's last view of the fabric (reachability, version, security findings). */
  fabricHealth(): Promise<IbFabricHealth | null>;
  browse(path: string): Promise<{ path: string; status: number; body: unknown }>;
}
