import type { PowerMetrics, SensorKind, SensorReading } from "../drivers/types.js";
import type { Power, Sensor, Thermal } from "../redfish/index.js";
import { numberOrNull, statusOf, text } from "./mappers.js";

type Bounds = SensorReading["thresholds"];

function bounds(entries: Record<keyof Bounds, unknown>): Bounds {
  const out: Bounds = {};
  for (const [key, value] of Object.entries(entries) as Array<[keyof Bounds, unknown]>) {
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  return out;
}

/** Temperatures and fans of a (deprecated but ubiquitous) `Thermal` resource. */
export function readingsFromThermal(thermal: Thermal, source: string): SensorReading[] {
  const temperatures = (thermal.Temperatures ?? []).map(
    (t, index): SensorReading => ({
      id: t.MemberId ?? `Temperature${index}`,
      name: t.Name ?? t.MemberId ?? `Temperature ${index}`,
      kind: "temperature",
      reading: numberOrNull(t.ReadingCelsius),
      units: "Cel",
      source,
      ...statusOf(t.Status),
      thresholds: bounds({
        upperCritical: t.UpperThresholdCritical,
        lowerCritical: t.LowerThresholdCritical,
        upperCaution: t.UpperThresholdNonCritical,
        lowerCaution: t.LowerThresholdNonCritical,
        upperFatal: undefined,
        lowerFatal: undefined,
        rangeMin: t.MinReadingRangeTemp,
        rangeMax: t.MaxReadingRangeTemp,
      }),
    }),
  );
  const fans = (thermal.Fans ?? []).map(
    (f, index): SensorReading => ({
      id: f.MemberId ?? `Fan${index}`,
      name: f.Name ?? f.FanName ?? f.MemberId ?? `Fan ${index}`,
      kind: "fan",
      reading: numberOrNull(f.Reading),
      units: text(f.ReadingUnits) ?? "RPM",
      source,
      ...statusOf(f.Status),
      thresholds: bounds({
        upperCritical: f.UpperThresholdCritical,
        lowerCritical: f.LowerThresholdCritical,
        upperCaution: undefined,
        lowerCaution: f.LowerThresholdNonCritical,
        upperFatal: undefined,
        lowerFatal: undefined,
        rangeMin: f.MinReadingRange,
        rangeMax: f.MaxReadingRange,
      }),
    }),
  );
  return [...temperatures, ...fans];
}

const KIND_BY_READING_TYPE: Readonly<Record<string, SensorKind>> = {
  Temperature: "temperature",
  Rotational: "fan",
  Power: "power",
  EnergyJoules: "power",
  Voltage: "voltage",
  Current: "current",
};

/** One member of a `Sensors` collection. */
export function readingFromSensor(sensor: Sensor, source: string): SensorReading {
  const thresholds = sensor.Thresholds ?? {};
  return {
    id: sensor.Id ?? "",
    name: sensor.Name ?? sensor.Id ?? "",
    kind: KIND_BY_READING_TYPE[sensor.ReadingType ?? ""] ?? "other",
    reading: numberOrNull(sensor.Reading),
    units: text(sensor.ReadingUnits) ?? "",
    source,
    ...statusOf(sensor.Status),
    thresholds: bounds({
      upperCritical: thresholds.UpperCritical?.Reading,
      lowerCritical: thresholds.LowerCritical?.Reading,
      upperCaution: thresholds.UpperCaution?.Reading,
      lowerCaution: thresholds.LowerCaution?.Reading,
      upperFatal: thresholds.UpperFatal?.Reading,
      lowerFatal: thresholds.LowerFatal?.Reading,
      rangeMin: sensor.ReadingRangeMin,
      rangeMax: sensor.ReadingRangeMax,
    }),
  };
}

/** Total consumption and per-supply figures of a `Power` resource. */
export function powerMetricsFrom(power: Power): PowerMetrics {
  // The first control with a reading is the chassis total; later ones are often sub-domains of it.
  const consumed = (power.PowerControl ?? [])
    .map((control) => numberOrNull(control.PowerConsumedWatts))
    .find((watts) => watts !== null);
  return {
    consumedWatts: consumed ?? null,
    supplies: (power.PowerSupplies ?? []).map((supply, index) => ({
      id: supply.MemberId ?? String(index),
      name: supply.Name ?? supply.MemberId ?? `PSU ${index}`,
      inputWatts: numberOrNull(supply.PowerInputWatts),
      outputWatts: numberOrNull(supply.PowerOutputWatts ?? supply.LastPowerOutputWatts),
      capacityWatts: numberOrNull(supply.PowerCapacityWatts),
      health: text(supply.Status?.Health),
    })),
  };
}
