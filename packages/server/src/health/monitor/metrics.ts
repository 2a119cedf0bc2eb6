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
  /**
   * What was set per machine, compactly (a BMC has dozens of sensors, a site thousands of BMCs): the identity
   * labels once, and per series only the labels that vary, joined into one key.
   */
  private readonly series = new Map<string, MachineSeries>();

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
    const series = this.of(bmc);
    const next = new Set<string>();
    for (const reading of readings) {
      if (reading.reading === null || !Number.isFinite(reading.reading)) continue;
      const key = join(reading.id, reading.units, reading.kind);
      this.sensorReading.set(sensorLabels(bmc, key), reading.reading);
      next.add(key);
    }
    for (const key of series.sensors) if (!next.has(key)) this.sensorReading.remove(sensorLabels(bmc, key));
    series.sensors = next.size > 0 ? next : NONE;
  }

  setFirmware(bmc: MonitoredBmc, components: readonly FirmwareComponent[]): void {
    const series = this.of(bmc);
    const next = new Set<string>();
    for (const component of components) {
      const key = join(component.name || component.id, component.version);
      this.firmwareVersion.set(firmwareLabels(bmc, key), 1);
      next.add(key);
    }
    for (const key of series.firmware)
      if (!next.has(key)) this.firmwareVersion.remove(firmwareLabels(bmc, key));
    series.firmware = next.size > 0 ? next : NONE;
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
    for (const key of series.sensors) this.sensorReading.remove(sensorLabels(series.bmc, key));
    for (const key of series.firmware) this.firmwareVersion.remove(firmwareLabels(series.bmc, key));
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
      series = { bmc: { ...bmc }, sensors: NONE, firmware: NONE, errors: NONE };
      this.series.set(bmc.machineId, series);
    }
    return series;
  }
}

interface MachineSeries {
  bmc: MonitoredBmc;
  sensors: ReadonlySet<string>;
  firmware: ReadonlySet<string>;
  errors: ReadonlySet<string>;
}

/** What a machine without series of a kind holds: most have no firmware or error series most of the time. */
const NONE: ReadonlySet<string> = new Set();

const SEPARATOR = "\u0000";
const join = (...parts: string[]): string => parts.join(SEPARATOR);
const split = (key: string): string[] => key.split(SEPARATOR);

function sensorLabels(bmc: MonitoredBmc, key: string): Record<SensorLabels, string> {
  const [sensor = "", unit = "", type = ""] = split(key);
  return { machine_id: bmc.machineId, bmc_mac: bmc.bmcMac, sensor, unit, type };
}

function firmwareLabels(bmc: MonitoredBmc, key: string): Record<FirmwareLabels, string> {
  const [name = "", version = ""] = split(key);
  return {
    machine_id: bmc.machineId,
    bmc_mac: bmc.bmcMac,
    serial_number: bmc.serial,
    firmware_name: name,
    version,
  };
}

function errorLabels(bmc: MonitoredBmc, key: string): Record<ErrorLabels, string> {
  const [kind = "", code = ""] = split(key);
  return { machine_id: bmc.machineId, kind, code };
}
