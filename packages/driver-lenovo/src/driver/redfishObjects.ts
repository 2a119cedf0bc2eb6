import { isRacksmithError } from "@racksmith/core";
import type { ActionTarget, RedfishObject } from "@racksmith/core/redfish";

function objectOf(value: unknown): RedfishObject | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as RedfishObject) : undefined;
}

/** The `Oem.Lenovo` section of a resource. */
export function lenovoOem(resource: RedfishObject): RedfishObject | undefined {
  return objectOf(objectOf(resource.Oem)?.Lenovo);
}

/** The `@odata.id` of a link property. */
export function linkOf(value: unknown): string | undefined {
  const id = objectOf(value)?.["@odata.id"];
  return typeof id === "string" && id ? id : undefined;
}

/** Where a resource stages changes (`@Redfish.Settings.SettingsObject`), e.g. XCC's `Systems/1/Pending`. */
export function settingsObjectOf(resource: RedfishObject): string | undefined {
  return linkOf(objectOf(resource["@Redfish.Settings"])?.SettingsObject);
}

/** An action advertised under `Actions.Oem`. */
export function oemActionOf(resource: RedfishObject, name: string): ActionTarget | undefined {
  return objectOf(objectOf(objectOf(resource.Actions)?.Oem)?.[name]) as ActionTarget | undefined;
}

/** The HTTP status of a Redfish error (works across copies of @racksmith/core). */
export function httpStatusOf(error: unknown): number | undefined {
  const status = isRacksmithError(error) ? error.details.httpStatus : undefined;
  return typeof status === "number" ? status : undefined;
}
