import { isJsonObject, type JsonObject, linkOf, objectField, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { lastPathSegment, normalizePath, parentPath } from "./resourcePath.js";

/** Names vendors give the pending-settings child of a Bios: DMTF/Dell/NVIDIA, HPE, Lenovo, Supermicro. */
const SETTINGS_CHILD_NAMES = new Set(["settings", "pending", "sd"]);

function isBios(path: string, body: JsonObject): boolean {
  return (
    (stringField(body, "@odata.type") ?? "").startsWith("#Bios.") ||
    lastPathSegment(path).toLowerCase() === "bios"
  );
}

/**
 * For a PATCH to a path that does not exist: the Bios it would hold pending settings for, when the path is a
 * settings child (`Settings`, `settings`, `Pending`, `SD`) of an existing Bios. Such a child is created on the
 * first PATCH, as BMCs that only materialise it once something is pending do.
 */
export async function biosOfMissingSettings(
  state: MockupState,
  path: string,
): Promise<JsonObject | undefined> {
  if (!SETTINGS_CHILD_NAMES.has(lastPathSegment(path).toLowerCase())) return undefined;
  const parent = parentPath(path);
  const bios = await state.read(parent);
  return bios?.kind === "json" && bios.status === 200 && isBios(parent, bios.body) ? bios.body : undefined;
}

/** The body a freshly created settings child starts from. */
export function emptySettingsFor(path: string, bios: JsonObject): JsonObject {
  return {
    "@odata.id": normalizePath(path),
    "@odata.type": stringField(bios, "@odata.type") ?? "#Bios.v1_1_0.Bios",
    Id: lastPathSegment(path),
    Name: "BIOS Pending Settings",
    Attributes: {},
  };
}

/** Where a Bios keeps pending settings: its `@Redfish.Settings.SettingsObject`, else an existing settings child. */
export async function pendingSettingsPath(
  state: MockupState,
  biosPath: string,
  bios: JsonObject,
): Promise<string | undefined> {
  const advertised = linkOf(objectField(bios, "@Redfish.Settings")?.SettingsObject);
  if (advertised) return advertised;
  for (const name of ["Settings", "settings", "Pending", "SD"]) {
    const candidate = `${normalizePath(biosPath)}/${name}`;
    if ((await state.read(candidate))?.kind === "json") return candidate;
  }
  return undefined;
}

/**
 * What a boot does to BIOS settings: the pending `Attributes` are merged into the Bios and the pending object is
 * emptied. Returns the names of the attributes applied.
 */
export async function applyPendingBios(
  state: MockupState,
  system: JsonObject,
  systemPath: string,
): Promise<string[]> {
  const biosPath = linkOf(system.Bios) ?? `${normalizePath(systemPath)}/Bios`;
  const bios = await state.read(biosPath);
  if (bios?.kind !== "json" || bios.status !== 200) return [];
  const settingsPath = await pendingSettingsPath(state, biosPath, bios.body);
  if (!settingsPath) return [];
  const pending = await state.read(settingsPath);
  if (pending?.kind !== "json" || pending.status !== 200) return [];
  const attributes = pending.body.Attributes;
  if (!isJsonObject(attributes) || Object.keys(attributes).length === 0) return [];
  const current = objectField(bios.body, "Attributes") ?? {};
  state.write(biosPath, { ...bios.body, Attributes: { ...current, ...attributes } });
  state.write(settingsPath, { ...pending.body, Attributes: {} });
  return Object.keys(attributes);
}
