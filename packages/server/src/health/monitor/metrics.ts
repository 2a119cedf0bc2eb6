import type { FirmwareComponent, SensorReading } from "@racksmith/core";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

const PREFIX = "racksmith_bmc_";

/** What a collection did: the kinds label of durations and errors. */
export type CollectionKind = "connect" | "sensors" | "firmware" | "eventLogs" | "probe";

/** Identity labels of a BMC's series. */
export interface MonitoredBmc {
  machineId: string;
  bmcMac: string;
  serial: string;
}

type SensorLabels = "machine_id" | "bmc_mac" | "sensor" | "unit" | "type";
type FirmwareLabels = "machine_id" | "bmc_mac" | "serial_number" | "firmware_name" | "version";
type ErrorLabels = "machine_id" | "kind" | "code";

/**
 * The monitor's Prometheus metrics (prefix `racksmith_bmc_`). Series are per BMC, so it remembers which ones
 * it set for each machine: a sensor or firmware component that disappears, or a machine that leaves the
 * fleet, has its series removed instead of exporting its last value forever.
 */
export class BmcMonitorMetrics {
  readonly sensorReading: Gauge<SensorLabels>;
  readonly firmwareVersion: Gauge<FirmwareLabels>;
  readonly duration: Histogram<"kind">;
  readonly errors: Counter<ErrorLabels>;
  private readonly series = new Map<
    string,
    {
      sensors: Map<string, Record<SensorLabels, string>>;
      firmware: Map<string, Record<FirmwareLabels, string>>;
      errors: Map<string, Record<ErrorLabels, string>>;
    }
  >();

  constructor(registry: Registry) {
    const registers = [registry];
    this.sensorReading = new Gauge({
      name: `${PREFIX}sensor_reading`,
      help: "Latest reading of a BMC sensor, in its unit",
      labelNames: ["machine_id", "bmc_mac", "sensor", "unit", "type"],
      registers,
    });
    this.firmwareVersion = new Gauge({
      name: `${PREFIX}firmware_version_info`,
      help: "Firmware component versions a BMC reports (always 1; the version is a label)",
      labelNames: ["machine_id", "bmc_mac", "serial_number", "firmware_name", "version"],
      registers,
    });
    this.duration = new Histogram({
      name: `${PREFIX}collection_duration_seconds`,
      help: "Time of one collection from one BMC, by kind (sensors, firmware, eventLogs, probe)",
      labelNames: ["kind"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.errors = new Counter({
      name: `${PREFIX}collection_errors_total`,
      help: "Failed collections per BMC, by kind and error code",
      labelNames: ["machine_id", "kind", "code"],
      registers,
    });
  }

  /** Replaces the machine's sensor series with these readings (readings without a value are not exported). */
  setSensors(bmc: MonitoredBmc, readings: readonly SensorReading[]): void {
    const previous = this.of(bmc.machineId).sensors;
    const next = new Map<string, Record<SensorLabels, string>>();
    for (const reading of readings) {
      if (reading.reading === null || !Number.isFinite(reading.reading)) continue;
      const labels = {
        machine_id: bmc.machineId,
        bmc_mac: bmc.bmcMac,
        sensor: reading.id,
        unit: reading.units,
        type: reading.kind,
      };
      this.sensorReading.set(labels, reading.reading);
      next.set(JSON.stringify(labels), labels);
    }
    for (const [key, labels] of previous) if (!next.has(key)) this.sensorReading.remove(labels);
    this.of(bmc.machineId).sensors = next;
  }

  setFirmware(bmc: MonitoredBmc, components: readonly FirmwareComponent[]): void {
    const previous = this.of(bmc.machineId).firmware;
    const next = new Map<string, Record<FirmwareLabels, string>>();
    for (const component of components) {
      const labels = {
        machine_id: bmc.machineId,
        bmc_mac: bmc.bmcMac,
        serial_number: bmc.serial,
        firmware_name: component.name || component.id,
        version: component.version,
      };
      this.firmwareVersion.set(labels, 1);
      next.set(JSON.stringify(labels), labels);
    }
    for (const [key, labels] of previous) if (!next.has(key)) this.firmwareVersion.remove(labels);
    this.of(bmc.machineId).firmware = next;
  }

  countError(machineId: string, kind: CollectionKind, code: string): void {
    const labels = { machine_id: machineId, kind, code };
    this.errors.inc(labels);
    this.of(machineId).errors.set(JSON.stringify(labels), labels);
  }

  /** Drops every series of machines not in `present` (deleted machines). */
  retain(present: ReadonlySet<string>): void {
    for (const [machineId, series] of this.series) {
      if (present.has(machineId)) continue;
      for (const labels of series.sensors.values()) this.sensorReading.remove(labels);
      for (const labels of series.firmware.values()) this.firmwareVersion.remove(labels);
      for (const labels of series.errors.values()) this.errors.remove(labels);
      this.series.delete(machineId);
    }
  }

  private of(machineId: string) {
    let series = this.series.get(machineId);
    if (!series) {
      series = { sensors: new Map(), firmware: new Map(), errors: new Map() };
      this.series.set(machineId, series);
    }
    return series;
  }
}
