import { describe, expect, it } from "vitest";
import { powerMetricsFrom, readingFromSensor, readingsFromThermal } from "./sensors.js";

describe("sensor mapping", () => {
  it("maps Thermal temperatures and fans with their thresholds", () => {
    const readings = readingsFromThermal(
      {
        Temperatures: [
          {
            MemberId: "0",
            Name: "Inlet",
            ReadingCelsius: 24,
            UpperThresholdCritical: 47,
            UpperThresholdNonCritical: 42,
            Status: { Health: "OK" },
          },
        ],
        Fans: [
          {
            MemberId: "1",
            Name: "Fan1",
            Reading: 6000,
            LowerThresholdCritical: 600,
            Status: { Health: "OK", State: "Enabled" },
          },
        ],
      },
      "1",
    );
    expect(readings).toEqual([
      expect.objectContaining({
        id: "0",
        kind: "temperature",
        reading: 24,
        units: "Cel",
        thresholds: { upperCritical: 47, upperCaution: 42 },
      }),
      expect.objectContaining({
        id: "1",
        kind: "fan",
        reading: 6000,
        units: "RPM",
        thresholds: { lowerCritical: 600 },
        state: "Enabled",
      }),
    ]);
  });

  it("maps a Sensors member by reading type", () => {
    const sensor = readingFromSensor(
      {
        Id: "PSU1In",
        Name: "PSU1 input",
        Reading: 1.2,
        ReadingType: "Current",
        ReadingUnits: "A",
        Thresholds: {
          UpperCritical: { Reading: 10 },
          UpperFatal: { Reading: 15 },
          LowerFatal: { Reading: null },
        },
        ReadingRangeMax: 20,
      },
      "1",
    );
    expect(sensor).toMatchObject({
      kind: "current",
      reading: 1.2,
      units: "A",
      thresholds: { upperCritical: 10, upperFatal: 15, rangeMax: 20 },
    });
    expect(readingFromSensor({ Id: "x", ReadingType: "Humidity", Reading: null }, "1")).toMatchObject({
      kind: "other",
      reading: null,
    });
  });

  it("takes the first PowerControl reading as the total", () => {
    const metrics = powerMetricsFrom({
      PowerControl: [{ PowerConsumedWatts: null }, { PowerConsumedWatts: 412 }, { PowerConsumedWatts: 100 }],
      PowerSupplies: [{ MemberId: "0", LastPowerOutputWatts: 200, PowerCapacityWatts: 800 }],
    });
    expect(metrics.consumedWatts).toBe(412);
    expect(metrics.supplies[0]).toMatchObject({ outputWatts: 200, capacityWatts: 800, inputWatts: null });
  });
});
