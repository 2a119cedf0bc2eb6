import type { Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import { NVLINK_DEFAULT_PARTITION_NUMBER } from "@racksmith/core/nvlink";
import type { Database } from "../../../db/index.js";
import type { InstanceFabric, InstanceFabricTarget } from "../../../lifecycle/fabrics/index.js";
import { mapHostGpus } from "./gpuMapping/index.js";
import { nvlinkCleanupReport } from "./health.js";
import type { NvLinkGpuObservation, NvLinkOperationOutcome } from "./tables.js";

const FAILED: readonly NvLinkOperationOutcome[] = ["failed", "timedout", "cancelled", "error"];

interface Observation {
  gpus: NvLinkGpuObservation[];
  problems: string[];
}

/**
 * The instance side of NVLink ("nvlink" config section, `configsSynced.nvlink`): checks the config against the
 * host's GPUs and the tenant's logical partitions, and reads the monitor's observations for sync and release.
 */
export function nvlinkInstanceFabric(deps: {
  database: Database;
  fabric: NvLinkFabric;
  logger: Logger;
  /** Asks the monitor for a pass soon. */
  wake: () => void;
  /** Whether the monitor's last pass could read NMX-M (undefined before the first). */
  reachable?: () => boolean | undefined;
  /** Stores a host health report (the health service's `recordReport`). */
  recordReport?: (hostId: string, report: HealthReport) => Promise<void>;
}): InstanceFabric {
  const { db } = deps.database;

  const observation = async (hostId: string): Promise<Observation | undefined> => {
    const row = await db
      .selectFrom("nvlink_gpu_observations")
      .select(["gpus", "problems"])
      .where("machine_id", "=", hostId)
      .executeTakeFirst();
    return row ? { gpus: row.gpus as NvLinkGpuObservation[], problems: row.problems as string[] } : undefined;
  };

  /** The clear reason of the last failed or timed-out operation that touched one of these GPUs. */
  const failureReasons = async (gpuIds: readonly string[]): Promise<string[]> => {
    if (gpuIds.length === 0) return [];
    const rows = await db
      .selectFrom("nvlink_operations")
      .selectAll()
      .where("status", "in", [...FAILED])
      .execute();
    const wanted = new Set(gpuIds);
    return rows
      .filter((row) => (row.gpus as string[]).some((gpu) => wanted.has(gpu)))
      .map(
        (row) =>
          `operation ${row.operation_id ?? `${row.kind} (not started)`} ${row.status === "timedout" ? "timed out" : row.status}: ${row.error ?? "no reason given"}; retrying`,
      );
  };

  return {
    name: "nvlink",

    async checkConfig(target: InstanceFabricTarget, field: string): Promise<void> {
      const wanted = target.config.nvlink?.gpus ?? [];
      if (wanted.length === 0) return;
      const report = await db
        .selectFrom("machine_reports")
        .select("inventory")
        .where("machine_id", "=", target.hostId)
        .executeTakeFirst();
      const hostGpus = report?.inventory?.gpus ?? [];
      const mapping = mapHostGpus(hostGpus, await deps.fabric.listGpus());
      const mapped = new Set(mapping.gpus.map((m) => m.deviceInstance));
      for (const [i, gpu] of wanted.entries()) {
        const at = `${field}.gpus[${i}]`;
        if (gpu.deviceInstance >= hostGpus.length) {
          throw invalid(
            `${at}.deviceInstance`,
            `host ${target.hostId} has ${hostGpus.length} GPU(s) (0-based index)`,
          );
        }
        if (!mapped.has(gpu.deviceInstance)) {
          const why =
            mapping.problems.find((p) => p.startsWith(`GPU ${gpu.deviceInstance} `)) ?? "not found in NMX-M";
          throw invalid(
            `${at}.deviceInstance`,
            `GPU ${gpu.deviceInstance} of host ${target.hostId} cannot be partitioned: ${why}`,
          );
        }
        const partition = await db
          .selectFrom("nvlink_logical_partitions")
          .select(["tenant_org", "deleted_at"])
          .where("id", "=", gpu.logicalPartitionId)
          .executeTakeFirst();
        if (!partition || partition.tenant_org !== target.tenantOrg) {
          throw invalid(
            `${at}.logicalPartitionId`,
            `no NVLink logical partition ${gpu.logicalPartitionId} of tenant ${target.tenantOrg}`,
          );
        }
        if (partition.deleted_at) {
          throw invalid(
            `${at}.logicalPartitionId`,
            `NVLink logical partition ${gpu.logicalPartitionId} is being deleted`,
          );
        }
      }
      deps.wake();
    },

    async syncProblems(target: InstanceFabricTarget): Promise<string[]> {
      const desired = new Map(
        (target.config.nvlink?.gpus ?? []).map((g) => [g.deviceInstance, g.logicalPartitionId]),
      );
      const seen = await observation(target.hostId);
      if (!seen) return desired.size > 0 ? ["waiting for the NVLink monitor to observe the host's GPUs"] : [];
      const problems = [...seen.problems.filter(() => desired.size > 0)];
      const pending: string[] = [];
      for (const gpu of seen.gpus) {
        const want = desired.get(gpu.deviceInstance) ?? null;
        if (foreign(gpu)) {
          problems.push(
            `GPU ${gpu.deviceInstance} (${gpu.gpuId}) is in NMX-M partition ${gpu.partitionNumber}, which Racksmith does not manage`,
          );
          pending.push(gpu.gpuId);
        } else if (want !== gpu.logicalPartitionId) {
          problems.push(
            want === null
              ? `GPU ${gpu.deviceInstance} (${gpu.gpuId}) is still in logical partition ${gpu.logicalPartitionId}`
              : `GPU ${gpu.deviceInstance} (${gpu.gpuId}) is not in logical partition ${want} yet`,
          );
          pending.push(gpu.gpuId);
        }
      }
      for (const deviceInstance of desired.keys()) {
        if (!seen.gpus.some((g) => g.deviceInstance === deviceInstance) && seen.problems.length === 0) {
          problems.push(`GPU ${deviceInstance} was not observed in NMX-M`);
        }
      }
      if (problems.length > 0) deps.wake();
      return [...problems, ...(await failureReasons(pending))];
    },

    async releaseProblems(host: { hostId: string; instanceId: string }): Promise<string[]> {
      const seen = await observation(host.hostId);
      if (!seen) return [];
      const held = seen.gpus.filter((gpu) => gpu.logicalPartitionId !== null || foreign(gpu));
      if (held.length > 0 && deps.reachable?.() === false && deps.recordReport) {
        // Termination goes on; the host stays out of allocation until the monitor has taken its GPUs out.
        await deps.recordReport(
          host.hostId,
          nvlinkCleanupReport(
            held.map((gpu) => gpu.gpuId),
            new Date(),
          ),
        );
        deps.logger.warn(
          { hostId: host.hostId },
          "NMX-M unreachable at release: NvLinkCleanupPending recorded",
        );
        return [];
      }
      if (held.length > 0) deps.wake();
      const problems = held.map(
        (gpu) =>
          `GPU ${gpu.deviceInstance} (${gpu.gpuId}) is still in NMX-M partition ${gpu.partitionNumber}`,
      );
      return [...problems, ...(await failureReasons(held.map((gpu) => gpu.gpuId)))];
    },

    async detachHost(host: { hostId: string; dpuIds: string[] }, signal: AbortSignal): Promise<void> {
      const seen = await observation(host.hostId);
      const byPartition = new Map<string, Set<string>>();
      for (const gpu of seen?.gpus ?? []) {
        if (!gpu.partitionId || gpu.partitionNumber === NVLINK_DEFAULT_PARTITION_NUMBER) continue;
        byPartition.set(gpu.partitionId, new Set([...(byPartition.get(gpu.partitionId) ?? []), gpu.gpuId]));
      }
      for (const [partitionId, gpus] of byPartition) {
        try {
          const partition = await deps.fabric.getPartition(partitionId, { signal });
          const kept = partition.gpus.filter((gpu) => !gpus.has(gpu));
          const ref =
            kept.length > 0
              ? await deps.fabric.updatePartition(partitionId, { gpus: kept }, { signal })
              : await deps.fabric.deletePartition(partitionId, { signal });
          await deps.fabric.waitForOperation(ref.operationId, { signal });
        } catch (error) {
          deps.logger.warn(
            { hostId: host.hostId, partitionId, err: (error as Error).message },
            "NVLink: could not detach a force-deleted host's GPUs (the monitor retries)",
          );
        }
      }
      deps.wake();
    },
  };
}

/** In a partition that is neither the default one nor a logical partition's. */
function foreign(gpu: NvLinkGpuObservation): boolean {
  return (
    gpu.partitionNumber !== null &&
    gpu.partitionNumber !== NVLINK_DEFAULT_PARTITION_NUMBER &&
    gpu.logicalPartitionId === null
  );
}

function invalid(field: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError(`${field}: ${message}`, { details: { field } });
}
