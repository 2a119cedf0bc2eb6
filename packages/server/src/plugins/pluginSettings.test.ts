import {
  BIOS_PROFILE_SETTINGS_PROPERTIES,
  type BmcDriverDefinition,
  redfishStandardDriver,
  resolveBiosProfile,
} from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/index.js";
import { checkPluginSettings, DRIVER_SETTINGS, HEALTH_PROBE_SETTINGS } from "./pluginSettings.js";

const dell: BmcDriverDefinition = {
  ...redfishStandardDriver,
  name: "dell",
  settingsSchema: {
    type: "object",
    additionalProperties: false,
    properties: BIOS_PROFILE_SETTINGS_PROPERTIES,
  },
};

function problems(sections: Record<string, Record<string, unknown>>): string[] {
  try {
    checkPluginSettings(DRIVER_SETTINGS, sections, [redfishStandardDriver, dell], "racksmith.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  return [];
}

describe("driver settings", () => {
  it("accepts BIOS profiles and fills in the default profile name", () => {
    const settings = checkPluginSettings(
      DRIVER_SETTINGS,
      { dell: { biosProfiles: { "PowerEdge R750": { performance: { ProcPwrPerf: "MaxPerf" } } } } },
      [dell],
      "racksmith.yaml",
    );
    expect(settings.get("dell")).toMatchObject({ biosProfile: "performance" });
  });

  it.each([
    [{ hpe: {} }, "drivers.hpe: no driver named hpe is loaded (loaded: redfish-standard, dell)"],
    [{ dell: { biosProfile: 3 } }, "drivers.dell.biosProfile: must be a string"],
    [
      { dell: { bisoProfiles: {} } },
      "unknown key drivers.dell.bisoProfiles (did you mean biosProfiles?); allowed: biosProfiles, biosProfile",
    ],
    [
      { dell: { biosProfiles: { R750: { performance: { A: [1] } } } } },
      "drivers.dell.biosProfiles.R750.performance.A: must be a string, a number, a boolean or null",
    ],
    [
      { "redfish-standard": { anything: 1 } },
      "drivers.redfish-standard: driver redfish-standard takes no settings",
    ],
  ])("%j → %s", (sections, expected) => {
    expect(problems(sections)).toEqual([expected]);
  });

  it("resolves a model's profile, spaces and case notwithstanding", () => {
    const settings = {
      biosProfiles: { PowerEdge_R750: { performance: { A: 1 }, powerEfficiency: { A: 2 } } },
      biosProfile: "powerEfficiency",
    };
    expect(resolveBiosProfile(settings, "PowerEdge R750")).toEqual({ A: 2 });
    expect(resolveBiosProfile({ ...settings, biosProfile: undefined }, "poweredge r750")).toEqual({ A: 1 });
    expect(resolveBiosProfile(settings, "PowerEdge R650")).toBeUndefined();
    expect(resolveBiosProfile(undefined, "PowerEdge R750")).toBeUndefined();
  });
});

describe("health probe settings", () => {
  const probes = [
    {
      name: "nvme-wear",
      settingsSchema: {
        type: "object",
        additionalProperties: false,
        properties: { threshold: { type: "integer", minimum: 1, default: 80 } },
      },
    },
    { name: "plain" },
  ];
  const check = (entries: Record<string, Record<string, unknown>>) =>
    checkPluginSettings(HEALTH_PROBE_SETTINGS, entries, probes, "site.yaml");

  it("fills in a probe's defaults and keeps the operator's values", () => {
    expect(check({ "nvme-wear": {} }).get("nvme-wear")).toEqual({ threshold: 80 });
    expect(check({ "nvme-wear": { threshold: 5 } }).get("nvme-wear")).toEqual({ threshold: 5 });
  });

  it("names every bad entry at once, by its key path and with the file", () => {
    const error = (() => {
      try {
        check({ "nvme-wear": { threshold: 0, treshold: 1 }, plain: { a: 1 }, missing: {} });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain("site.yaml");
    expect([...(error as ConfigError).problems].sort()).toEqual(
      [
        "healthProbes.missing: no health probe named missing is loaded (loaded: nvme-wear, plain)",
        "healthProbes.nvme-wear.threshold: must be >= 1",
        "healthProbes.plain: health probe plain takes no settings",
        "unknown key healthProbes.nvme-wear.treshold (did you mean threshold?); allowed: threshold",
      ].sort(),
    );
  });

  it("says when no probe is loaded at all", () => {
    expect(() => checkPluginSettings(HEALTH_PROBE_SETTINGS, { x: {} }, [], "site.yaml")).toThrow(
      "healthProbes.x: no health probe named x is loaded (loaded: none)",
    );
  });
});
