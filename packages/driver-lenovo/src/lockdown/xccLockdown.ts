import { type TriStateStatus, triState } from "@racksmith/core";
import type { RedfishObject } from "@racksmith/core/redfish";

/** The system OEM property that assigns the front-panel USB port; renamed on newer XCC firmware. */
export const FRONT_USB_PROPERTIES = ["FrontPanelUSB", "USBManagementPortAssignment"] as const;
export type FrontUsbProperty = (typeof FRONT_USB_PROPERTIES)[number];

/**
 * What XCC lockdown is made of, as read from the BMC; a setting the firmware does not have is absent. Locked:
 * no in-band IPMI (KCS), no firmware rollback, no USB LAN between host and XCC, front USB port owned by the host.
 */
export interface LockdownSnapshot {
  managerPath: string;
  systemPath: string;
  /** `Managers/{m}` `Oem.Lenovo.KCSEnabled`: a bool, or a string on some firmware. */
  kcs?: boolean | string;
  /** `Managers/{m}/Oem/Lenovo/Security` `Configurator.FWRollback`. */
  firmwareRollback?: { path: string; value: string };
  /** `Managers/{m}/EthernetInterfaces/ToHost` `InterfaceEnabled`. */
  hostUsbLan?: { path: string; enabled: boolean };
  /** `Systems/{s}` `Oem.Lenovo.<FrontPanelUSB|USBManagementPortAssignment>.FPMode`. */
  frontUsb?: { property: FrontUsbProperty; mode: string | undefined };
}

/** One write of the lockdown sequence. */
export interface LockdownWrite {
  setting: string;
  path: string;
  body: RedfishObject;
}

/** The front USB port assignment of a system's `Oem.Lenovo`, under whichever name the firmware uses. */
export function frontUsbOf(systemOem: RedfishObject | undefined): LockdownSnapshot["frontUsb"] {
  for (const property of FRONT_USB_PROPERTIES) {
    const assignment = systemOem?.[property];
    if (assignment && typeof assignment === "object") {
      const mode = (assignment as RedfishObject).FPMode;
      return { property, mode: typeof mode === "string" ? mode : undefined };
    }
  }
  return undefined;
}

/** An unknown string reads as enabled, so lockdown is never reported locked on a guess. */
export function isKcsEnabled(value: boolean | string): boolean {
  return typeof value === "boolean" ? value : !/^(false|disabled)$/i.test(value.trim());
}

/** The KCS value to send, in the type and spelling the BMC reports (it refuses the other one). */
export function kcsValue(current: boolean | string, enabled: boolean): boolean | string {
  if (typeof current === "boolean") return enabled;
  if (/^(true|false)$/i.test(current.trim())) return String(enabled);
  return enabled ? "Enabled" : "Disabled";
}

function lockedFlags(snapshot: LockdownSnapshot): Array<[string, boolean]> {
  const flags: Array<[string, boolean]> = [];
  if (snapshot.kcs !== undefined) flags.push(["IPMI over KCS off", !isKcsEnabled(snapshot.kcs)]);
  if (snapshot.firmwareRollback)
    flags.push(["firmware rollback off", snapshot.firmwareRollback.value === "Disabled"]);
  if (snapshot.hostUsbLan) flags.push(["host USB LAN off", !snapshot.hostUsbLan.enabled]);
  if (snapshot.frontUsb) flags.push(["front USB port host-only", snapshot.frontUsb.mode === "Server"]);
  return flags;
}

/** Whether the firmware has any of the lockdown settings. */
export function hasLockdownSettings(snapshot: LockdownSnapshot): boolean {
  return lockedFlags(snapshot).length > 0;
}

/** enabled: every setting locked; disabled: none; partial: some (the message names both sides). */
export function lockdownStatusOf(snapshot: LockdownSnapshot): TriStateStatus {
  return triState(lockedFlags(snapshot));
}

/**
 * The writes that bring every setting to the wanted state, in libredfish's order (KCS, firmware rollback,
 * USB LAN, front USB); settings already there are not written again.
 */
export function lockdownWrites(snapshot: LockdownSnapshot, lock: boolean): LockdownWrite[] {
  const writes: LockdownWrite[] = [];
  if (snapshot.kcs !== undefined && isKcsEnabled(snapshot.kcs) === lock) {
    writes.push({
      setting: "KCSEnabled",
      path: snapshot.managerPath,
      body: { Oem: { Lenovo: { KCSEnabled: kcsValue(snapshot.kcs, !lock) } } },
    });
  }
  const rollback = snapshot.firmwareRollback;
  if (rollback && (rollback.value === "Disabled") !== lock) {
    writes.push({
      setting: "FWRollback",
      path: rollback.path,
      body: { Configurator: { FWRollback: lock ? "Disabled" : "Enabled" } },
    });
  }
  const usbLan = snapshot.hostUsbLan;
  if (usbLan && usbLan.enabled === lock) {
    writes.push({ setting: "ToHost", path: usbLan.path, body: { InterfaceEnabled: !lock } });
  }
  const frontUsb = snapshot.frontUsb;
  if (frontUsb && (frontUsb.mode === "Server") !== lock) {
    const assignment = lock ? { FPMode: "Server", PortSwitchingTo: "Server" } : { FPMode: "Shared" };
    writes.push({
      setting: frontUsb.property,
      path: snapshot.systemPath,
      body: { Oem: { Lenovo: { [frontUsb.property]: assignment } } },
    });
  }
  return writes;
}
