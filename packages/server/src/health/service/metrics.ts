import type { HealthReport } from "@racksmith/core/health";
import { Gauge, type Registry } from "prom-client";
import { allocationBlockers, suppressesExternalAlerting } from "../effects.js";

/** A host's health at a glance: no alerts, alerts that block nothing, or not allocatable. */
export type HostHealthStatus = "healthy" | "alerting" | "unallocatable";
export const HOST_HEALTH_STATUSES: readonly HostHealthStatus[] = ["healthy", "alerting", "unallocatable"];

type AlertLabels = "machine_id" | "probe_id" | "target" | "classification" | "suppressed";

export function hostHealthStatus(report: HealthReport): HostHealthStatus {
  if (report.alerts.length === 0) return "healthy";
  return allocationBlockers(report).length > 0 ? "unallocatable" : "alerting";
}

/**
 * The health metrics of this process (`racksmith_health_*`), refreshed whenever it computes a host's
 * aggregate. Per process: with several replicas, each shows the hosts it last computed.
 */
export class HealthMetrics {
  readonly alerts: Gauge<AlertLabels>;
  readonly hosts: Gauge<"status">;
  private readonly seriesByHost = new Map<string, Record<AlertLabels, string>[]>();
  private readonly statusByHost = new Map<string, HostHealthStatus>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.alerts = new Gauge({
      name: "racksmith_health_alerts",
      help: 'Alerts in each host\'s aggregate health, one series per classification (classification "" when it has none); suppressed="true" when the host carries SuppressExternalAlerting',
      labelNames: ["machine_id", "probe_id", "target", "classification", "suppressed"],
      registers,
    });
    this.hosts = new Gauge({
      name: "racksmith_health_hosts",
      help: "Hosts by aggregate health status: healthy (no alerts), alerting (alerts that do not block allocation), unallocatable (PreventAllocations)",
      labelNames: ["status"],
      registers,
    });
    for (const status of HOST_HEALTH_STATUSES) this.hosts.set({ status }, 0);
  }

  /** Replaces the host's alert series with those of its new aggregate. */
  refresh(hostId: string, report: HealthReport): void {
    for (const labels of this.seriesByHost.get(hostId) ?? []) this.alerts.remove(labels);
    const suppressed = String(suppressesExternalAlerting(report));
    const series = report.alerts.flatMap((alert) =>
      (alert.classifications.length > 0 ? alert.classifications : [""]).map((classification) => ({
        machine_id: hostId,
        probe_id: alert.id,
        target: alert.target ?? "",
        classification,
        suppressed,
      })),
    );
    for (const labels of series) this.alerts.set(labels, 1);
    this.seriesByHost.set(hostId, series);
    this.statusByHost.set(hostId, hostHealthStatus(report));
    this.countHosts();
  }

  /** Drops a host that no longer exists. */
  forget(hostId: string): void {
    for (const labels of this.seriesByHost.get(hostId) ?? []) this.alerts.remove(labels);
    this.seriesByHost.delete(hostId);
    this.statusByHost.delete(hostId);
    this.countHosts();
  }

  private countHosts(): void {
    const counts = new Map<HostHealthStatus, number>(HOST_HEALTH_STATUSES.map((s) => [s, 0]));
    for (const status of this.statusByHost.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
    for (const [status, count] of counts) this.hosts.set({ status }, count);
  }
}

/** The health metrics on a registry (what `HealthService` registers; exported for a service without it). */
export function healthMetrics(registry: Registry): HealthMetrics {
  return new HealthMetrics(registry);
}
