import type { SensorReading } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { evaluateSensor } from "./evaluate.js";
import { sensorReport } from "./sensorReport.js";

function sensor(
  reading: number | null,
  thresholds: SensorReading["thresholds"],
  extra: Partial<SensorReading> = {},
): SensorReading {
  return {
    id: "PSU0_OutputPower",
    name: "PSU0 output",
    kind: "power",
    reading,
    units: "W",
    source: "1",
    health: undefined,
    state: "Enabled",
    thresholds,
    ...extra,
  };
}

const FULL = {
  rangeMin: 0,
  rangeMax: 1500,
  lowerCaution: 1200,
  upperCaution: 1300,
  lowerCritical: 0,
  upperCritical: 1310,
};

describe("evaluateSensor", () => {
  it.each([
    ["inside every threshold", 1250, FULL, undefined, undefined],
    ["above the valid range", 1600, FULL, undefined, "SensorFailure"],
    ["below the valid range", -1, FULL, undefined, "SensorFailure"],
    ["above upper critical", 1320, FULL, undefined, "SensorCritical"],
    ["above upper caution", 1305, FULL, undefined, "SensorWarning"],
    ["below lower caution", 1100, FULL, undefined, "SensorWarning"],
    [
      "below lower critical (fan stopped)",
      100,
      { lowerCritical: 600, lowerCaution: 900 },
      undefined,
      "SensorCritical",
    ],
    ["above upper fatal", 95, { upperCaution: 80, upperFatal: 90 }, undefined, "SensorCritical"],
    ["below lower fatal", 1, { lowerFatal: 5 }, undefined, "SensorCritical"],
    ["on the threshold itself", 1310, { upperCritical: 1310 }, undefined, undefined],
    [
      "a malformed range is ignored",
      1320,
      { rangeMin: 10, rangeMax: 10, upperCritical: 1310 },
      undefined,
      "SensorCritical",
    ],
    ["the BMC says OK: thresholds overridden", 1600, FULL, "OK", undefined],
    ["the BMC says Ok (any case)", 1320, FULL, "Ok", undefined],
    ["the BMC says Critical, thresholds fine", 1250, FULL, "Critical", undefined],
    ["no reading", null, FULL, "Critical", undefined],
    ["no thresholds at all", 1e9, {}, undefined, undefined],
  ] as const)("%s", (_name, reading, thresholds, health, expected) => {
    const result = evaluateSensor(sensor(reading, thresholds, { health }));
    if (expected === undefined) {
      expect(result).toEqual({ ok: true });
    } else {
      const blocking = expected === "SensorWarning" ? [] : ["PreventAllocations"];
      expect(result).toMatchObject({
        ok: false,
        kind: expected,
        classifications: ["Hardware", expected, ...blocking],
      });
    }
  });

  it("writes the documented message", () => {
    expect(evaluateSensor(sensor(1320, FULL))).toMatchObject({
      message:
        "power 'PSU0_OutputPower': Critical - reading 1320.00W (power), valid range: 0.0 to 1500.0, caution: 1200.0 to 1300.0, critical: 0.0 to 1310.0",
    });
    expect(
      evaluateSensor(sensor(100, { lowerCritical: 600 }, { id: "Fan1", kind: "fan", units: "RPM" })),
    ).toMatchObject({
      message:
        "fan 'Fan1': Critical - reading 100.00RPM (fan), valid range: none, caution: none, critical: 600.0 to inf",
    });
  });
});

describe("sensorReport", () => {
  it("is a hardware-health report: BmcSensor alerts per violating sensor, successes for the rest", () => {
    const now = new Date("2025-01-01T00:00:00Z");
    const report = sensorReport(
      [
        sensor(1320, FULL),
        sensor(30, { upperCritical: 90 }, { id: "Inlet", kind: "temperature", units: "Cel" }),
        sensor(1400, FULL, { id: "PSU1_OutputPower" }),
      ],
      now,
    );
    expect(report).toEqual({
      source: "hardware-health",
      observedAt: now.toISOString(),
      successes: [{ id: "BmcSensor", target: "Inlet" }],
      alerts: [
        expect.objectContaining({
          id: "BmcSensor",
          target: "PSU0_OutputPower",
          classifications: ["Hardware", "SensorCritical", "PreventAllocations"],
        }),
        expect.objectContaining({
          target: "PSU1_OutputPower",
          classifications: ["Hardware", "SensorCritical", "PreventAllocations"],
        }),
      ],
    });
  });
});
