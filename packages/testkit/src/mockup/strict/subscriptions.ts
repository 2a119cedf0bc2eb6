import { type JsonObject, type JsonValue, linkOf, stringField } from "../json.js";
import type { MockupState } from "../mockupState.js";
import { redfishError } from "../redfishMessages.js";
import { resourceKey, samePath } from "../resourcePath.js";
import type { ServiceCore } from "../serviceCore.js";
import type { MockupResponse } from "../types.js";

const EVENT_SERVICE = "/redfish/v1/EventService";
/** The only protocol the mockup would deliver events with. */
const SUPPORTED_PROTOCOLS = ["Redfish"];
const EVENT_FORMAT_TYPES = ["Event", "MetricReport"];

/**
 * Strict rule `subscriptions`: a POST creating an EventDestination must name a Destination URI (http or https)
 * and a Protocol the service supports (Redfish, the default); `Context` must be a string and `EventFormatType`
 * one of its values. Answers 400 for the first property in error, undefined to let the creation go ahead.
 */
export async function checkSubscription(
  core: ServiceCore,
  pathname: string,
  collection: JsonObject,
  body: JsonObject,
): Promise<MockupResponse | undefined> {
  if (
    !core.rules.enforces("subscriptions") ||
    !(await isSubscriptionCollection(core.state, pathname, collection))
  ) {
    return undefined;
  }
  return (
    checkDestination(body.Destination) ??
    checkEnum(body, "Protocol", SUPPORTED_PROTOCOLS) ??
    checkString(body, "Context") ??
    checkEnum(body, "EventFormatType", EVENT_FORMAT_TYPES)
  );
}

/** The collection the EventService links as `Subscriptions`, the standard path, or one typed so. */
async function isSubscriptionCollection(
  state: MockupState,
  pathname: string,
  collection: JsonObject,
): Promise<boolean> {
  if (resourceKey(pathname).endsWith("/eventservice/subscriptions")) return true;
  if (stringField(collection, "@odata.type")?.startsWith("#EventDestinationCollection.")) return true;
  const linked = linkOf((await state.readJson(EVENT_SERVICE))?.Subscriptions);
  return linked !== undefined && samePath(linked, pathname);
}

function checkDestination(value: JsonValue | undefined): MockupResponse | undefined {
  if (value === undefined) return redfishError(400, "PropertyMissing", ["Destination"]);
  if (typeof value === "string" && isHttpUri(value)) return undefined;
  return redfishError(400, "PropertyValueFormatError", [shown(value), "Destination"]);
}

/** Absent is fine (the service default); a string outside the list is not in it, anything else malformed. */
function checkEnum(body: JsonObject, name: string, allowed: readonly string[]): MockupResponse | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") return redfishError(400, "PropertyValueFormatError", [shown(value), name]);
  return allowed.includes(value) ? undefined : redfishError(400, "PropertyValueNotInList", [value, name]);
}

function checkString(body: JsonObject, name: string): MockupResponse | undefined {
  const value = body[name];
  if (value === undefined || typeof value === "string") return undefined;
  return redfishError(400, "PropertyValueFormatError", [shown(value), name]);
}

function isHttpUri(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Message arguments are strings: a string as is, anything else as JSON. */
function shown(value: JsonValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
