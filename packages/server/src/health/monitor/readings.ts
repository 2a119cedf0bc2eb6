import type { BmcDriver, PowerMetrics, SensorReading } from "@racksmith/core";
import { hasErrorCode } from "@racksmith/core";

/** The driver operations the monitor uses (a fake implements just these). */
export type MonitorBmc = Pick<
  BmcDriver,
  "sensors" | "thermal" | "powerMetrics" | "firmwareInventory" | "systemEventLog" | "bmcEventLog"
>;

const notSupported = (error: unknown): boolean => hasErrorCode(error, "not_supported");

/**
 * A BMC's readings: its `Sensors` collections when it has them (they carry thresholds and ranges), else the
 * older `Thermal` and `Power` resources, whichever of the two it exposes.
 */
export async function collectReadings(bmc: MonitorBmc): Promise<SensorReading[]> {
  try {
    return await bmc.sensors();
  } catch (error) {
    if (!notSupported(error)) throw error;
  }
  const [thermal, power] = await Promise.allSettled([bmc.thermal(), bmc.powerMetrics()]);
  if (thermal.status === "rejected" && !notSupported(thermal.reason)) throw thermal.reason;
  if (power.status === "rejected" && !notSupported(power.reason)) throw power.reason;
  if (thermal.status === "rejected" && power.status === "rejected") throw thermal.reason;
  return [
    ...(thermal.status === "fulfilled" ? thermal.value : []),
    ...(power.status === "fulfilled" ? readingsFromPower(power.value) : []),
  ];
}

/** Power figures as readings (no thresholds: `Power` advertises none for them). */
export function readingsFromPower(metrics: PowerMetrics): SensorReading[] {
  const reading = (id: string, name: string, value: number | null, health?: string): SensorReading => ({
    id,
    name,
    kind: "power",
    reading: value,
    units: "W",
    source: "Power",
    health,
    state: undefined,
    thresholds: {},
  });
  return [
    reading("PowerConsumedWatts", "Power consumed", metrics.consumedWatts),
    ...metrics.supplies.flatMap((supply) => [
      reading(`${supply.id}_InputPower`, `${supply.name} input`, supply.inputWatts, supply.health),
      reading(`${supply.id}_OutputPower`, `${supply.name} output`, supply.outputWatts, supply.health),
    ]),
  ];
}
