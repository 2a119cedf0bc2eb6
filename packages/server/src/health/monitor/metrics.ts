import type { FirmwareComponent, SensorReading } from "@racksmith/core";
import { Counter, Histogram, type Registry } from "prom-client";
import { GroupedGauge, type GroupedSeries } from "../../metrics/index.js";

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
 * The monitor's Prometheus metrics (prefix `racksmith_bmc_`). Series are per BMC: a machine's sensor and firmware
 * series are set and replaced together (a {@link GroupedGauge} group per machine, its text written once per
 * collection), so a sensor or firmware component that disappears, or a machine that leaves the fleet, has its
 * series removed instead of exporting its last value forever.
 */
export class BmcMonitorMetrics {
  readonly sensorReading: GroupedGauge<SensorLabels>;
  readonly firmwareVersion: GroupedGauge<FirmwareLabels>;
  readonly duration: Histogram<"kind">;
  readonly errors: Counter<ErrorLabels>;
  /** Per machine: the identity labels its series were set with, and its error series (kind and code joined). */
  private readonly series = new Map<string, MachineSeries>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.sensorReading = new GroupedGauge(
      `${PREFIX}sensor_reading`,
      "Latest reading of a BMC sensor, in its unit",
      ["machine_id", "bmc_mac", "sensor", "unit", "type"],
      registers,
    );
    this.firmwareVersion = new GroupedGauge(
      `${PREFIX}firmware_version_info`,
      "Firmware component versions a BMC reports (always 1; the version is a label)",
      ["machine_id", "bmc_mac", "serial_number", "firmware_name", "version"],
      registers,
    );
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
    this.of(bmc);
    // One series per sensor, unit and type: a repeated one keeps its first place and its last value.
    const values = new Map<string, GroupedSeries<SensorLabels>>();
    for (const reading of readings) {
      if (reading.reading === null || !Number.isFinite(reading.reading)) continue;
      const labels = {
        machine_id: bmc.machineId,
        bmc_mac: bmc.bmcMac,
        sensor: reading.id,
        unit: reading.units,
        type: reading.kind,
      };
      values.set(join(reading.id, reading.units, reading.kind), { labels, value: reading.reading });
    }
    this.sensorReading.set(bmc.machineId, [...values.values()]);
  }

  setFirmware(bmc: MonitoredBmc, components: readonly FirmwareComponent[]): void {
    this.of(bmc);
    const values = new Map<string, GroupedSeries<FirmwareLabels>>();
    for (const component of components) {
      const name = component.name || component.id;
      const labels = {
        machine_id: bmc.machineId,
        bmc_mac: bmc.bmcMac,
        serial_number: bmc.serial,
        firmware_name: name,
        version: component.version,
      };
      values.set(join(name, component.version), { labels, value: 1 });
    }
    this.firmwareVersion.set(bmc.machineId, [...values.values()]);
  }

  countError(bmc: MonitoredBmc, kind: CollectionKind, code: string): void {
    const key = join(kind, code);
    this.errors.inc(errorLabels(bmc, key));
    const series = this.of(bmc);
    if (!series.errors.has(key)) series.errors = new Set(series.errors).add(key);
  }

  /** Drops every series of machines not in `present` (deleted machines). */
  retain(present: ReadonlySet<string>): void {
    for (const [machineId, series] of this.series) {
      if (present.has(machineId)) continue;
      this.removeAll(series);
      this.series.delete(machineId);
    }
  }

  private removeAll(series: MachineSeries): void {
    this.sensorReading.remove(series.bmc.machineId);
    this.firmwareVersion.remove(series.bmc.machineId);
    for (const key of series.errors) this.errors.remove(errorLabels(series.bmc, key));
  }

  /** The machine's series; a BMC whose identity labels changed has its old series removed first. */
  private of(bmc: MonitoredBmc): MachineSeries {
    let series = this.series.get(bmc.machineId);
    if (series && (series.bmc.bmcMac !== bmc.bmcMac || series.bmc.serial !== bmc.serial)) {
      this.removeAll(series);
      series = undefined;
    }
    if (!series) {
      series = { bmc: { ...bmc }, errors: NONE };
      this.series.set(bmc.machineId, series);
    }
    return series;
  }
}

interface MachineSeries {
  bmc: MonitoredBmc;
  errors: ReadonlySet<string>;
}

/** What a machine without error series holds: most have none most of the time. */
const NONE: ReadonlySet<string> = new Set();

const SEPARATOR = "\u0000";
const join = (...parts: string[]): string => parts.join(SEPARATOR);
const split = (key: string): string[] => key.split(SEPARATOR);

function errorLabels(bmc: MonitoredBmc, key: string): Record<ErrorLabels, string> {
  const [kind = "", code = ""] = split(key);
  return { machine_id: bmc.machineId, kind, code };
}
