import type { TriStateStatus } from "@racksmith/core";

/** Where one lockdown setting stands; `other` is neither the locked nor the unlocked value. */
export type SettingState = "locked" | "unlocked" | "other";

/** One of the settings lockdown changes, as read from the BMC. */
export interface LockdownSetting {
  name: string;
  state: SettingState;
  /** What the BMC reports, for the status message. */
  actual: string;
}

/** Exact status the lifecycle waits on: enabled only when every setting is locked, disabled when none is. */
export function lockdownStatusOf(settings: readonly LockdownSetting[]): TriStateStatus {
  const state = settings.every((s) => s.state === "locked")
    ? "enabled"
    : settings.every((s) => s.state === "unlocked")
      ? "disabled"
      : "partial";
  return { state, message: settings.map((s) => `${s.name}=${s.actual}`).join(", ") };
}

export function sysLockdownSetting(enabled: boolean | undefined): LockdownSetting {
  return {
    name: "SysLockdownEnabled",
    state: enabled === true ? "locked" : enabled === false ? "unlocked" : "other",
    actual: String(enabled ?? "missing"),
  };
}

export function kcsPrivilegeSetting(privilege: string | undefined): LockdownSetting {
  return {
    name: "KCS privilege",
    state: privilege === "Callback" ? "locked" : privilege === "Administrator" ? "unlocked" : "other",
    actual: privilege ?? "missing",
  };
}

/** MGX C2: in-band IPMI over SSIF is a plain on/off switch on the system. */
export function ipmiHostInterfaceSetting(enabled: boolean | undefined): LockdownSetting {
  return {
    name: "IPMIHostInterface",
    state: enabled === false ? "locked" : enabled === true ? "unlocked" : "other",
    actual: enabled === undefined ? "missing" : enabled ? "on" : "off",
  };
}

/** The Redfish host interface(s): locked when all are off, unlocked when all are on. */
export function hostInterfaceSetting(enabled: ReadonlyArray<boolean | undefined>): LockdownSetting {
  const state = enabled.every((e) => e === false)
    ? "locked"
    : enabled.every((e) => e === true)
      ? "unlocked"
      : "other";
  return {
    name: "host interface",
    state,
    actual: enabled.map((e) => (e === undefined ? "missing" : e ? "on" : "off")).join("/"),
  };
}
