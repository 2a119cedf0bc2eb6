import { RedfishHttpError } from "@racksmith/core/redfish";
import { FirmwareUpdateBusyError, SystemLockdownActiveError } from "../errors/index.js";

// SMC registry: "System is in lockdown mode. This action is forbidden." and its PATCH variant.
const LOCKDOWN_REFUSALS = ["OemSystemLockdownEnabled", "OemSystemLockdownEnabledPatchValid"];
// SMC "The BIOS Update was in progress." and the Base registry's generic busy answer.
const UPDATE_BUSY = ["OemBiosUpdateIsInProgress", "ResourceInUse"];

/** HTTP 404 (the BMC has no such resource), or one of the other statuses given. */
export function isNotFound(error: unknown, ...alsoStatuses: number[]): boolean {
  return error instanceof RedfishHttpError && [404, ...alsoStatuses].includes(error.httpStatus);
}

/** 400 PropertyUnknown for `BootOrder`: firmware that lists a boot order but only changes the OEM one. */
export function isBootOrderUnknown(error: unknown): boolean {
  if (!(error instanceof RedfishHttpError) || error.httpStatus !== 400) return false;
  const text = `${error.bodyExcerpt} ${error.messages.map((m) => m.message ?? "").join(" ")}`;
  return error.hasMessageId("PropertyUnknown") && text.includes("BootOrder");
}

/** The typed error when the BMC refused because System Lockdown is on. */
export function lockdownRefusal(operation: string, error: unknown): SystemLockdownActiveError | undefined {
  return error instanceof RedfishHttpError && LOCKDOWN_REFUSALS.some((id) => error.hasMessageId(id))
    ? new SystemLockdownActiveError(operation, { cause: error })
    : undefined;
}

/** The typed error when the BMC refused a firmware update because another one is running. */
export function updateBusyRefusal(error: unknown): FirmwareUpdateBusyError | undefined {
  return error instanceof RedfishHttpError && UPDATE_BUSY.some((id) => error.hasMessageId(id))
    ? new FirmwareUpdateBusyError({ cause: error })
    : undefined;
}

/** Runs a change, turning the BMC's System Lockdown refusal into a typed error. */
export async function withLockdownRefusal<T>(operation: string, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    throw lockdownRefusal(operation, error) ?? error;
  }
}
