import type { SensorReading } from "@racksmith/core";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { BmcMonitorMetrics } from "./metrics.js";

const reading = (id: string, value: number | null): SensorReading =>
  ({ id, name: id, kind: "temperature", units: "Cel", reading: value }) as SensorReading;

async function series(registry: Registry, metric: string): Promise<string[]> {
  const text = await registry.metrics();
  return text
    .split("\n")
    .filter((line) => line.startsWith(metric))
    .sort();
}

describe("BmcMonitorMetrics", () => {
  const bmc = { machineId: "h-1", bmcMac: "AA:BB", serial: "S1" };

  it("replaces a machine's sensor series, dropping the ones that went away or lost their value", async () => {
    const registry = new Registry();
    const metrics = new BmcMonitorMetrics(registry);
    metrics.setSensors(bmc, [reading("cpu", 40), reading("inlet", 21), reading("gpu", 50)]);
    metrics.setSensors(bmc, [reading("cpu", 41), reading("gpu", null)]);
    expect(await series(registry, "racksmith_bmc_sensor_reading{")).toEqual([
      'racksmith_bmc_sensor_reading{machine_id="h-1",bmc_mac="AA:BB",sensor="cpu",unit="Cel",type="temperature"} 41',
    ]);
  });

  it("exports a sensor listed twice once: in its first place, with its last value", async () => {
    const registry = new Registry();
    const metrics = new BmcMonitorMetrics(registry);
    metrics.setSensors(bmc, [reading("cpu", 40), reading("inlet", 21), reading("cpu", 43)]);
    const text = await registry.metrics();
    expect(text.split("\n").filter((line) => line.startsWith("racksmith_bmc_sensor_reading{"))).toEqual([
      'racksmith_bmc_sensor_reading{machine_id="h-1",bmc_mac="AA:BB",sensor="cpu",unit="Cel",type="temperature"} 43',
      'racksmith_bmc_sensor_reading{machine_id="h-1",bmc_mac="AA:BB",sensor="inlet",unit="Cel",type="temperature"} 21',
    ]);
  });

  it("removes every series of a machine whose BMC changed, and of a machine that left", async () => {
    const registry = new Registry();
    const metrics = new BmcMonitorMetrics(registry);
    metrics.setSensors(bmc, [reading("cpu", 40)]);
    metrics.setFirmware(bmc, [{ id: "bios", name: "BIOS", version: "1.0" } as never]);
    metrics.countError(bmc, "sensors", "timeout");
    // Another BMC for the same machine (replaced): none of the old labels stay.
    const replaced = { ...bmc, bmcMac: "CC:DD" };
    metrics.setSensors(replaced, [reading("cpu", 42)]);
    expect(await series(registry, "racksmith_bmc_")).toEqual([
      expect.stringContaining('bmc_mac="CC:DD",sensor="cpu"'),
    ]);
    metrics.setFirmware(replaced, [{ id: "bios", name: "BIOS", version: "1.1" } as never]);
    metrics.countError(replaced, "firmware", "unreachable");
    metrics.retain(new Set(["h-2"]));
    expect(
      (await series(registry, "racksmith_bmc_")).filter((line) => !line.includes("collection_duration")),
    ).toEqual([]);
  });
});
