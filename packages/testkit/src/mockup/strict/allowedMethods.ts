import { isActionPath } from "../actions.js";
import { SESSIONS_PATH } from "../auth.js";
import { isCollection } from "../collections.js";
import { pushUriKind } from "../firmwareUpdate.js";
import { type JsonObject, stringField } from "../json.js";
import type { MockupDocument } from "../mockupDocument.js";
import { methodNotAllowed } from "../redfishMessages.js";
import { resourceKey } from "../resourcePath.js";
import type { ServiceCore } from "../serviceCore.js";
import type { MockupResponse } from "../types.js";
import { isPredefinedRole } from "./privileges.js";

const READ_ONLY = ["GET", "HEAD"];
const UPDATABLE = ["GET", "HEAD", "PATCH"];
const CREATABLE_COLLECTION = ["GET", "HEAD", "POST"];
const DELETABLE = ["GET", "HEAD", "PATCH", "DELETE"];
const DELETABLE_ONLY = ["GET", "HEAD", "DELETE"];

/** Collections a client may add members to (DSP0266: others answer POST with 405). */
const CREATABLE_TYPES = new Set([
  "SessionCollection",
  "ManagerAccountCollection",
  "RoleCollection",
  "EventDestinationCollection",
  "JobCollection",
  "DellJobCollection",
]);

/** Resources the service owns: never updated by a client. */
const READ_ONLY_TYPES = new Set([
  "ServiceRoot",
  "JsonSchemaFile",
  "MessageRegistryFile",
  "MessageRegistry",
  "LogEntry",
]);

/** Members a client may delete; `Session` and `Task` cannot be patched either. */
const DELETABLE_TYPES = new Set(["ManagerAccount", "Role", "EventDestination", "Job", "DellJob"]);
const DELETABLE_ONLY_TYPES = new Set(["Session", "Task"]);

/** `#ComputerSystem.v1_20_0.ComputerSystem` → `ComputerSystem`. */
function typeName(body: JsonObject): string | undefined {
  const type = stringField(body, "@odata.type");
  return type?.slice(type.lastIndexOf(".") + 1);
}

function methodsOf(pathname: string, body: JsonObject): string[] {
  if (resourceKey(pathname) === resourceKey("/redfish/v1")) return READ_ONLY;
  const type = typeName(body);
  if (isCollection(body)) {
    const creatable =
      (type !== undefined && CREATABLE_TYPES.has(type)) ||
      resourceKey(pathname) === resourceKey(SESSIONS_PATH);
    return creatable ? CREATABLE_COLLECTION : READ_ONLY;
  }
  if (isPredefinedRole(body)) return READ_ONLY;
  if (type === undefined) return UPDATABLE;
  if (READ_ONLY_TYPES.has(type)) return READ_ONLY;
  if (DELETABLE_ONLY_TYPES.has(type)) return DELETABLE_ONLY;
  return DELETABLE_TYPES.has(type) ? DELETABLE : UPDATABLE;
}

/**
 * The methods a resource supports, as its `Allow` header says: undefined where the path is no stored resource
 * (the handlers answer 404) or is served by something else (actions, firmware push URIs, task monitors).
 */
export async function allowedMethods(core: ServiceCore, pathname: string): Promise<string[] | undefined> {
  const document = await core.state.read(pathname);
  return document ? methodsOfDocument(pathname, document) : undefined;
}

function methodsOfDocument(pathname: string, document: MockupDocument): string[] | undefined {
  const captured = document.headers.allow;
  if (captured) return captured.split(",").map((method) => method.trim().toUpperCase());
  if (document.kind === "text") return READ_ONLY;
  if (document.status !== 200) return undefined;
  return methodsOf(pathname, document.body);
}

/**
 * 405 with the resource's `Allow` when it does not support the method. Actions, firmware pushes and the
 * paths a vendor behavior hooks are the behavior's and the handlers' to answer.
 */
export async function methodNotAllowedHere(
  core: ServiceCore,
  method: string,
  pathname: string,
): Promise<MockupResponse | undefined> {
  if (!core.rules.enforces("methods") || method === "GET" || method === "HEAD") return undefined;
  if (method === "POST" && (isActionPath(pathname) || (await pushUriKind(core.state, pathname)))) {
    return undefined;
  }
  if (core.behaviors.hooks(method, pathname)) return undefined;
  const allow = await allowedMethods(core, pathname);
  if (!allow || allow.includes(method)) return undefined;
  return methodNotAllowed(method, pathname, allow.join(", "));
}

/** The headers DSP0266 requires on GET and HEAD: `Allow`, `Cache-Control`, `Link` to the JSON schema. */
export function withResourceHeaders(
  core: ServiceCore,
  pathname: string,
  document: MockupDocument,
  response: MockupResponse,
): MockupResponse {
  if (!core.rules.enforces("responseHeaders") || response.status !== 200) return response;
  const allow = methodsOfDocument(pathname, document) ?? READ_ONLY;
  const headers: Record<string, string> = {
    allow: allow.join(", "),
    "cache-control": "no-cache",
    ...response.headers,
  };
  const schema = typeof response.body === "object" ? describedBy(response.body) : undefined;
  if (schema && !headers.link) headers.link = `<${schema}>; rel=describedby`;
  return { ...response, headers };
}

/** `#ComputerSystem.v1_20_0.ComputerSystem` → the DMTF schema file of that version. */
function describedBy(body: JsonObject): string | undefined {
  const type = stringField(body, "@odata.type");
  const match = type ? /^#([A-Za-z0-9]+)\.(v\d+_\d+_\d+)\.[A-Za-z0-9]+$/.exec(type) : null;
  if (match) return `http://redfish.dmtf.org/schemas/v1/${match[1]}.${match[2]}.json`;
  const unversioned = type ? /^#([A-Za-z0-9]+)\.[A-Za-z0-9]+$/.exec(type) : null;
  return unversioned ? `http://redfish.dmtf.org/schemas/v1/${unversioned[1]}.json` : undefined;
}
