import { isJsonObject, type JsonObject, objectField, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { normalizePath, parentPath, SERVICE_ROOT_PATH, samePath } from "./resourcePath.js";

/** An action a resource advertises under `Actions` (or `Actions.Oem`). */
export interface AdvertisedAction {
  /** `#ComputerSystem.Reset`, `#DellBios.RunBIOSLiveScanning`, … */
  readonly name: string;
  readonly resourcePath: string;
  readonly definition: JsonObject;
}

/** True when a request path addresses an action (`…/Actions/…`). */
export function isActionPath(pathname: string): boolean {
  return /\/actions\//i.test(normalizePath(pathname));
}

/**
 * Finds the advertisement whose `target` is this path (case- and trailing-slash-insensitive). The resource before
 * `/Actions/` is asked first, then its ancestors: HPE advertises `…/bios/settings/Actions/…` on the Bios itself.
 */
export async function findAdvertisedAction(
  state: MockupState,
  pathname: string,
): Promise<AdvertisedAction | undefined> {
  const path = normalizePath(pathname);
  const at = path.toLowerCase().indexOf("/actions/");
  if (at < 0) return undefined;
  for (let owner = path.slice(0, at); owner.length >= SERVICE_ROOT_PATH.length; owner = parentPath(owner)) {
    const document = await state.read(owner);
    if (document?.kind !== "json" || document.status !== 200) continue;
    // Most BMCs list actions under `Actions`; iLO lists its OEM ones under `Oem.<vendor>.Actions` too.
    const oem = objectField(document.body, "Oem");
    const vendorActions = Object.values(oem ?? {}).flatMap((vendor) =>
      isJsonObject(vendor) && isJsonObject(vendor.Actions) ? [vendor.Actions] : [],
    );
    for (const actions of [objectField(document.body, "Actions"), ...vendorActions]) {
      const found = searchActions(actions, path);
      if (found) return { ...found, resourcePath: owner };
    }
  }
  return undefined;
}

function searchActions(
  actions: JsonObject | undefined,
  target: string,
): { name: string; definition: JsonObject } | undefined {
  if (!actions) return undefined;
  for (const [name, definition] of Object.entries(actions)) {
    if (!isJsonObject(definition)) continue;
    const advertised = stringField(definition, "target");
    // Action names carry a `#` (`#Bios.ResetBios`, iDRAC's `DellManager.v1_0_0#DellManager.ClearPending`).
    if (name.includes("#") && advertised !== undefined && samePath(advertised, target)) {
      return { name, definition };
    }
    // `Actions.Oem` holds OEM actions directly or grouped per vendor (`Oem.Nvidia.#NvidiaUpdateService.…`).
    if (!name.includes("#")) {
      const nested = searchActions(definition, target);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** `#ComputerSystem.Reset` → `ComputerSystem.Reset`, to dispatch built-in actions by their standard name. */
export function standardActionName(name: string): string {
  return name.replace(/^#/, "");
}
