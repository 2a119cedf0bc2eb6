import type { TriStateStatus } from "@racksmith/core";
import { lockedFirstBootDevice } from "./bootDevices.js";
import { type AttributeMap, type AttributeValues, evaluateChecks, textOf } from "./checks.js";

export const SYSTEM_LOCKDOWN = "Lockdown.1.SystemLockdown";
export const RACADM = "Racadm.1.Enable";

/** First write of a lockdown: everything but the lockdown itself, which freezes the settings once on. */
export function lockdownPreparation(model: string | undefined): AttributeValues {
  return {
    [RACADM]: "Disabled",
    "ServerBoot.1.FirstBootDevice": lockedFirstBootDevice(model),
    "ServerBoot.1.BootOnce": "Disabled",
  };
}

export const LOCKDOWN_ON: AttributeValues = { [SYSTEM_LOCKDOWN]: "Enabled" };
export const LOCKDOWN_OFF: AttributeValues = { [SYSTEM_LOCKDOWN]: "Disabled", [RACADM]: "Enabled" };

/** Locked: SystemLockdown on and racadm off; unlocked: the reverse; anything else is partial. */
export function lockdownStatusOf(attributes: AttributeMap): TriStateStatus {
  return evaluateChecks([
    { key: SYSTEM_LOCKDOWN, actual: textOf(attributes[SYSTEM_LOCKDOWN]), on: ["Enabled"], off: ["Disabled"] },
    { key: RACADM, actual: textOf(attributes[RACADM]), on: ["Disabled"], off: ["Enabled"] },
  ]);
}
