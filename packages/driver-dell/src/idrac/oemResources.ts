import type { RedfishObject } from "@racksmith/core/redfish";

/** The target of an OEM action whose advertised name ends with `suffix` (Dell prefixes them with a schema). */
export function oemActionTarget(resource: RedfishObject, suffix: string): string | undefined {
  const oem = (resource.Actions as { Oem?: Record<string, { target?: string }> } | undefined)?.Oem ?? {};
  return Object.entries(oem).find(([name]) => name.endsWith(suffix))?.[1]?.target;
}

/** `@Redfish.Settings.SettingsObject` of a resource: where its pending changes go on newer firmware. */
export function settingsObjectOf(resource: RedfishObject): string | undefined {
  const settings = resource["@Redfish.Settings"] as { SettingsObject?: { "@odata.id"?: string } } | undefined;
  return settings?.SettingsObject?.["@odata.id"];
}
