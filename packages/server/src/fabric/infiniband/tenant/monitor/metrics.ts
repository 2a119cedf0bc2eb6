import { Counter, Gauge, Histogram, type Registry } from "prom-client";

const PREFIX = "racksmith_ib_monitor_";

/** What one iteration saw, for the gauges (NICo's `carbide_ib_monitor_*`, reference §A.8). */
export interface IbMonitorIterationFigures {
  fabric: string;
  reachable: boolean;
  error?: string;
  version?: string;
  partitions: number;
  portsByState: Record<string, number>;
  insecure: boolean;
  allowInsecure: boolean;
  hostsByPorts: Array<{ total: number; active: number; withPartitions: number }>;
  hostsWithMissing: number;
  hostsWithUnexpected: number;
  hostsWithUnknown: number;
  observationUpdates: number;
}

/** The IB fabric monitor's metrics (prefix `racksmith_ib_monitor_`). */
export class IbMonitorMetrics {
  readonly iterationLatency: Histogram;
  readonly changesApplied: Counter<"fabric" | "operation" | "status">;
  private readonly fabricsCount: Gauge;
  private readonly statusUpdates: Gauge;
  private readonly byPortState: Gauge<"total_ports" | "active_ports">;
  private readonly byPortsWithPartitions: Gauge<"ports_with_partitions">;
  private readonly missing: Gauge;
  private readonly unexpected: Gauge;
  private readonly unknown: Gauge;
  private readonly ufmVersion: Gauge<"fabric" | "version">;
  private readonly fabricError: Gauge<"fabric" | "error">;
  private readonly insecure: Gauge<"fabric">;
  private readonly allowInsecure: Gauge<"fabric">;
  private readonly partitions: Gauge<"fabric">;
  private readonly portsByState: Gauge<"fabric" | "port_state">;

  constructor(registry: Registry, fabric: string) {
    const registers = [registry];
    const gauge = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
      new Gauge<L>({ name: PREFIX + name, help, labelNames, registers });
    this.iterationLatency = new Histogram({
      name: `${PREFIX}iteration_latency`,
      help: "Duration of an IB fabric monitor iteration (ms)",
      buckets: [10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000],
      registers,
    });
    this.changesApplied = new Counter({
      name: `${PREFIX}ufm_changes_applied`,
      help: "GUID binds and unbinds the monitor asked the fabric for",
      labelNames: ["fabric", "operation", "status"],
      registers,
    });
    for (const operation of ["bind_guid_to_pkey", "unbind_guid_from_pkey"])
      for (const status of ["ok", "error"]) this.changesApplied.inc({ fabric, operation, status }, 0);
    this.fabricsCount = gauge("fabrics_count", "InfiniBand fabrics monitored");
    this.statusUpdates = gauge(
      "machine_ib_status_updates_count",
      "Host observations written by the last iteration",
    );
    this.byPortState = gauge("machines_by_port_state_count", "Hosts by IB port count and active ports", [
      "total_ports",
      "active_ports",
    ]);
    this.byPortsWithPartitions = gauge(
      "machines_by_ports_with_partitions_count",
      "Hosts by number of ports in a tenant partition",
      ["ports_with_partitions"],
    );
    this.missing = gauge("machines_with_missing_pkeys_count", "Hosts with GUIDs missing from a desired pkey");
    this.unexpected = gauge(
      "machines_with_unexpected_pkeys_count",
      "Hosts with GUIDs in pkeys they should not be in",
    );
    this.unknown = gauge(
      "machines_with_unknown_pkeys_count",
      "Hosts with GUIDs in pkeys outside the configured ranges",
    );
    this.ufmVersion = gauge("ufm_version_count", "The fabric manager's version", ["fabric", "version"]);
    this.fabricError = gauge("fabric_error_count", "The last iteration could not read the fabric", [
      "fabric",
      "error",
    ]);
    this.insecure = gauge(
      "insecure_fabric_configuration_count",
      "1 when the fabric's SM settings are insecure",
      ["fabric"],
    );
    this.allowInsecure = gauge(
      "allow_insecure_fabric_configuration_count",
      "1 when the operator accepts an insecure fabric (fabrics.infiniband.allowInsecureFabric)",
      ["fabric"],
    );
    this.partitions = gauge("ufm_partitions_count", "Partitions on the fabric", ["fabric"]);
    this.portsByState = gauge("ufm_ports_by_state_count", "Host-facing ports by state", [
      "fabric",
      "port_state",
    ]);
  }

  record(figures: IbMonitorIterationFigures): void {
    const { fabric } = figures;
    this.fabricsCount.set(1);
    this.fabricError.reset();
    if (!figures.reachable) {
      this.fabricError.set({ fabric, error: figures.error ?? "unknown" }, 1);
      return;
    }
    this.ufmVersion.reset();
    if (figures.version) this.ufmVersion.set({ fabric, version: figures.version }, 1);
    this.insecure.set({ fabric }, figures.insecure ? 1 : 0);
    this.allowInsecure.set({ fabric }, figures.allowInsecure ? 1 : 0);
    this.partitions.set({ fabric }, figures.partitions);
    this.portsByState.reset();
    for (const [state, count] of Object.entries(figures.portsByState))
      this.portsByState.set({ fabric, port_state: state }, count);
    this.statusUpdates.set(figures.observationUpdates);
    this.missing.set(figures.hostsWithMissing);
    this.unexpected.set(figures.hostsWithUnexpected);
    this.unknown.set(figures.hostsWithUnknown);
    this.byPortState.reset();
    this.byPortsWithPartitions.reset();
    const byState = new Map<string, number>();
    const byPartitions = new Map<number, number>();
    for (const host of figures.hostsByPorts) {
      const key = `${host.total}/${host.active}`;
      byState.set(key, (byState.get(key) ?? 0) + 1);
      byPartitions.set(host.withPartitions, (byPartitions.get(host.withPartitions) ?? 0) + 1);
    }
    for (const [key, count] of byState) {
      const [total, active] = key.split("/");
      this.byPortState.set({ total_ports: total ?? "0", active_ports: active ?? "0" }, count);
    }
    for (const [ports, count] of byPartitions)
      this.byPortsWithPartitions.set({ ports_with_partitions: String(ports) }, count);
  }
}
