import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { BASE_REGISTRY, baseMessage } from "../redfishMessages.js";
import { jsonResponse } from "../responses.js";
import type { MockupResponse } from "../types.js";

interface IgnoredProperty {
  /** Path of the property in the request, `/`-separated (`Boot/BootSourceOverrideFoo`). */
  property: string;
  reason: "unknown" | "readOnly";
}

/** A PATCH body split into what is applied and what is ignored (reported back as messages). */
export interface PatchPlan {
  apply: JsonObject;
  ignored: IgnoredProperty[];
}

interface PatchPlanOptions {
  /** Top-level properties a client may set although they never show (an account's `Password`). */
  writeOnly?: readonly string[];
  /** Attribute names valid in `Attributes` beyond the current ones (the parent Bios's, for a settings object). */
  knownAttributes?: readonly string[];
}

/** Properties the service owns; the list is short because no schema says more. */
const READ_ONLY = new Set([
  "Id",
  "Links",
  "Actions",
  "Status",
  "Members",
  "Members@odata.count",
  "Members@odata.nextLink",
  "@Redfish.Settings",
  "@Redfish.ActionInfo",
]);

// DSP0266 lets a client send these with a PATCH (settings objects); they are not properties of the resource.
const REQUEST_ANNOTATIONS = new Set(["@Redfish.SettingsApplyTime", "@Redfish.OperationApplyTime"]);

function isReadOnly(key: string): boolean {
  return key.startsWith("@odata.") || READ_ONLY.has(key);
}

/** What one planning run carries along. */
interface Planner {
  readonly ignored: IgnoredProperty[];
  readonly writeOnly: ReadonlySet<string>;
  readonly knownAttributes: readonly string[];
}

/**
 * Splits a PATCH: a property is known when the resource has it now (no schemas here), read-only when the
 * service owns it; objects are checked key by key, arrays and values replacing a non-object are taken whole.
 */
export function planPatch(current: JsonObject, patch: JsonObject, options: PatchPlanOptions = {}): PatchPlan {
  const planner: Planner = {
    ignored: [],
    writeOnly: new Set(options.writeOnly ?? []),
    knownAttributes: options.knownAttributes ?? [],
  };
  return { apply: planObject(current, patch, "", planner), ignored: planner.ignored };
}

function planObject(current: JsonObject, patch: JsonObject, path: string, planner: Planner): JsonObject {
  const apply: JsonObject = {};
  for (const [key, value] of Object.entries(patch)) {
    const property = path === "" ? key : `${path}/${key}`;
    if (isReadOnly(key)) {
      planner.ignored.push({ property, reason: "readOnly" });
    } else if (!isKnown(current, key, path === "", planner)) {
      planner.ignored.push({ property, reason: "unknown" });
    } else {
      const planned =
        path === "" && key === "Attributes" && isJsonObject(value)
          ? planAttributes(current.Attributes, value, planner)
          : planMember(current[key], value, property, planner);
      if (planned !== undefined) apply[key] = planned;
    }
  }
  return apply;
}

function isKnown(current: JsonObject, key: string, topLevel: boolean, planner: Planner): boolean {
  if (Object.hasOwn(current, key)) return true;
  if (!topLevel) return false;
  if (key === "Attributes") return planner.knownAttributes.length > 0;
  return planner.writeOnly.has(key) || REQUEST_ANNOTATIONS.has(key);
}

/** A known member: objects over objects recurse, anything else is applied whole; undefined when all is ignored. */
function planMember(
  current: JsonValue | undefined,
  value: JsonValue,
  property: string,
  planner: Planner,
): JsonValue | undefined {
  if (!isJsonObject(current) || !isJsonObject(value)) return value;
  const before = planner.ignored.length;
  const nested = planObject(current, value, property, planner);
  // `{}` changes nothing but is not wrong; an object whose every key was ignored applies nothing.
  return Object.keys(nested).length > 0 || planner.ignored.length === before ? nested : undefined;
}

/** BIOS / manager `Attributes`: names come from a registry, so only existence counts, and values go whole. */
function planAttributes(
  current: JsonValue | undefined,
  patch: JsonObject,
  planner: Planner,
): JsonValue | undefined {
  const known = new Set([...Object.keys(isJsonObject(current) ? current : {}), ...planner.knownAttributes]);
  const apply: JsonObject = {};
  for (const [name, value] of Object.entries(patch)) {
    if (known.has(name)) apply[name] = value;
    else planner.ignored.push({ property: `Attributes/${name}`, reason: "unknown" });
  }
  const allIgnored = Object.keys(apply).length === 0 && Object.keys(patch).length > 0;
  return allIgnored ? undefined : apply;
}

function ignoredMessage({ property, reason }: IgnoredProperty): JsonObject {
  return baseMessage(reason === "unknown" ? "PropertyUnknown" : "PropertyNotWritable", [property]);
}

/** 400 for a PATCH of which nothing could be applied: one message per property ignored. */
export function patchRefused(ignored: readonly IgnoredProperty[]): MockupResponse {
  const general = baseMessage("GeneralError");
  return jsonResponse(400, {
    error: {
      code: `${BASE_REGISTRY}.GeneralError`,
      message: String(general.Message),
      "@Message.ExtendedInfo": ignored.map(ignoredMessage),
    },
  });
}

/** 200 for a PATCH applied in part: the resource as now stored, with a message per property ignored. */
export function patchPartlyApplied(
  body: JsonObject,
  etag: string,
  ignored: readonly IgnoredProperty[],
): MockupResponse {
  return jsonResponse(200, { ...body, "@Message.ExtendedInfo": ignored.map(ignoredMessage) }, { etag });
}
