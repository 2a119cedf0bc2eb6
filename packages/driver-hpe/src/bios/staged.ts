import type { BiosAttributes } from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";
import type { SettingCheck } from "../status/index.js";

/** The BIOS as it is now and the staged attributes that differ: what the next boot will apply. */
export interface StagedBios {
  current: BiosAttributes;
  pending: BiosAttributes;
}

/**
 * Checks one attribute against the value it needs, counting a staged value as set: iLO applies BIOS changes
 * only at the next boot, and the label says when a value is still staged. Undefined when the BIOS lacks it.
 */
export function stagedSetting(staged: StagedBios, key: string, wanted: BiosValue): SettingCheck | undefined {
  const isStaged = key in staged.pending;
  const value = isStaged ? staged.pending[key] : staged.current[key];
  if (value === undefined) return undefined;
  return {
    label: `${key}=${String(value)}${isStaged ? " (staged for next boot)" : ""}`,
    ok: value === wanted,
  };
}
