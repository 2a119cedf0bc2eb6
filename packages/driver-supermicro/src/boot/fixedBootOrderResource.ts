import type { ComputerSystem } from "@racksmith/core/redfish";
import { type BmcAccess, isNotFound, withLockdownRefusal } from "../bmc/index.js";
import type { FixedBootOrder, SupermicroSystemExtras } from "../oem/index.js";
import type { FixedBootOrderPatch } from "./fixedBootOrder.js";

/** `Systems/{s}/Oem/Supermicro/FixedBootOrder`, or undefined on firmware without it. */
export async function readFixedBootOrder(
  bmc: BmcAccess,
): Promise<{ path: string; resource: FixedBootOrder } | undefined> {
  const system = (await bmc.system()) as ComputerSystem & SupermicroSystemExtras;
  const path =
    system.Oem?.Supermicro?.FixedBootOrder?.["@odata.id"] ??
    `${await bmc.systemPath()}/Oem/Supermicro/FixedBootOrder`;
  try {
    return { path, resource: await bmc.client.get<FixedBootOrder>(path) };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function patchFixedBootOrder(
  bmc: BmcAccess,
  path: string,
  patch: FixedBootOrderPatch,
  operation: string,
): Promise<void> {
  await withLockdownRefusal(operation, () => bmc.client.patch(path, patch));
}
