import {
  BIOS_PROFILE_SETTINGS_PROPERTIES,
  type BmcDriverDefinition,
  redfishStandardDriver,
  resolveBiosProfile,
} from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/index.js";
import { checkDriverSettings } from "./driverSettings.js";

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
    checkDriverSettings(sections, [redfishStandardDriver, dell], "racksmith.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  return [];
}

describe("driver settings", () => {
  it("accepts BIOS profiles and fills in the default profile name", () => {
    const settings = checkDriverSettings(
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
