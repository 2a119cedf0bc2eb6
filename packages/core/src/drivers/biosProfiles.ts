import type { BiosAttributes } from "./types.js";

/**
 * Operator BIOS profiles for one driver, from `drivers.<name>` in the config (NICo's `BiosProfileVendor`):
 * model → profile name (`performance`, `powerEfficiency`, …) → attributes, and the profile to apply.
 */
export interface BiosProfileSettings {
  biosProfiles?: Record<string, Record<string, BiosAttributes>>;
  /** Which profile `machineSetup` applies (default `performance`). */
  biosProfile?: string;
}

const ATTRIBUTES_SCHEMA = {
  type: "object",
  additionalProperties: { type: ["string", "number", "boolean", "null"] },
};

/** JSON Schema properties every driver that supports BIOS profiles can put in its `settingsSchema`. */
export const BIOS_PROFILE_SETTINGS_PROPERTIES: Readonly<Record<string, unknown>> = {
  biosProfiles: {
    description:
      "model (as the BMC reports it; spaces and underscores are equivalent) → profile → BIOS attributes",
    type: "object",
    additionalProperties: { type: "object", additionalProperties: ATTRIBUTES_SCHEMA },
  },
  biosProfile: { description: "profile applied by machine setup", type: "string", default: "performance" },
};

/** The whole `settingsSchema` of a driver whose only settings are its BIOS profiles. */
export const BIOS_PROFILE_SETTINGS_SCHEMA: Readonly<Record<string, unknown>> = {
  type: "object",
  additionalProperties: false,
  properties: BIOS_PROFILE_SETTINGS_PROPERTIES,
};

function modelKey(model: string): string {
  return model
    .trim()
    .replace(/[\s_]+/g, "_")
    .toLowerCase();
}

/** The attributes of the configured profile for this model, if the operator defined one. */
export function resolveBiosProfile(
  settings: Readonly<Record<string, unknown>> | undefined,
  model: string | undefined,
): BiosAttributes | undefined {
  const { biosProfiles, biosProfile = "performance" } = (settings ?? {}) as BiosProfileSettings;
  if (!biosProfiles || !model) return undefined;
  const wanted = modelKey(model);
  const profiles = Object.entries(biosProfiles).find(([key]) => modelKey(key) === wanted)?.[1];
  return profiles?.[biosProfile];
}
