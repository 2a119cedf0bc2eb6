import { Counter, Gauge, Histogram, type Registry } from "prom-client";

const PREFIX = "racksmith_nvlink_monitor_";

/** NICo's NvlPartitionMonitor metrics (reference §B.6), under Racksmith's prefix and in seconds. */
export class NvLinkMonitorMetrics {
  readonly iterationLatency: Histogram<never>;
  readonly operationLatency: Histogram<"operation">;
  readonly configApplyLatency: Histogram<never>;
  readonly machineStatusUpdates: Gauge<never>;
  readonly logicalPartitions: Gauge<never>;
  readonly physicalPartitions: Gauge<never>;
  readonly connectErrors: Gauge<"error">;
  readonly nmxmPartitions: Gauge<never>;
  readonly nmxmGpus: Gauge<never>;
  readonly mismatches: Gauge<never>;
  readonly stalePartitionsDeleted: Gauge<never>;
  readonly changesApplied: Counter<"operation" | "status">;

  constructor(registry: Registry) {
    const registers = [registry];
    const buckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
    this.iterationLatency = new Histogram({
      name: `${PREFIX}iteration_latency_seconds`,
      help: "Duration of one NVLink monitor pass",
      buckets,
      registers,
    });
    this.operationLatency = new Histogram({
      name: `${PREFIX}nmxm_op_latency_seconds`,
      help: "Time from starting an NMX-M operation to its final state (or the timeout)",
      labelNames: ["operation"],
      buckets,
      registers,
    });
    this.configApplyLatency = new Histogram({
      name: `${PREFIX}nvlink_config_apply_latency_seconds`,
      help: "Time operations spent pending in NMX-M before completing",
      buckets,
      registers,
    });
    this.machineStatusUpdates = gauge(
      registry,
      "machine_status_updates_count",
      "Hosts whose GPU observation the last pass wrote",
    );
    this.logicalPartitions = gauge(
      registry,
      "num_logical_partitions",
      "NVLink logical partitions (deleted ones included until gone)",
    );
    this.physicalPartitions = gauge(registry, "num_physical_partitions", "NMX-M partitions Racksmith owns");
    this.connectErrors = new Gauge({
      name: `${PREFIX}nmxm_connect_error_count`,
      help: "Passes in a row that could not read NMX-M, by error code",
      labelNames: ["error"],
      registers,
    });
    this.nmxmPartitions = gauge(
      registry,
      "nmxm_partition_count",
      "Partitions NMX-M reports (default ones included)",
    );
    this.nmxmGpus = gauge(registry, "nmxm_gpu_count", "GPUs NMX-M reports");
    this.mismatches = gauge(
      registry,
      "nvlink_info_mismatches",
      "Host GPUs the last pass could not map to NMX-M GPUs",
    );
    this.stalePartitionsDeleted = gauge(
      registry,
      "stale_partitions_deleted",
      "Owned partitions the last pass forgot because NMX-M no longer has them",
    );
    this.changesApplied = new Counter({
      name: `${PREFIX}nmxm_changes_applied_total`,
      help: "NMX-M operations by kind (create, update, remove, remove_default_partition, pending) and outcome",
      labelNames: ["operation", "status"],
      registers,
    });
  }
}

function gauge(registry: Registry, name: string, help: string): Gauge<never> {
  return new Gauge({ name: `${PREFIX}${name}`, help, registers: [registry] });
}
