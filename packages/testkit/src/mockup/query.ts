import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";

/** `.` subordinate links (not under `Links`), `*` every link, `~` only links under `Links` (DMTF $expand). */
export type ExpandKind = "." | "*" | "~";

export interface ResourceQuery {
  readonly top?: number;
  readonly skip?: number;
  readonly expand?: { readonly kind: ExpandKind; readonly levels: number };
  /** `only`: a collection of exactly one member answers with that member (DSP0266). */
  readonly only?: boolean;
}

export type QueryParseResult =
  | { readonly ok: true; readonly query: ResourceQuery }
  | { readonly ok: false; readonly parameter: string; readonly value: string };

const MAX_EXPAND_LEVELS = 6;
const EXPAND = /^([.*~])(?:\(\$levels=(\d+)\))?$/;

/** Reads `$top`, `$skip`, `$expand` and `only`; other query parameters are ignored, as many BMCs do. */
export function parseResourceQuery(query: string): QueryParseResult {
  const params = new URLSearchParams(query);
  const parsed: { top?: number; skip?: number; expand?: ResourceQuery["expand"]; only?: boolean } = {};
  if (params.has("only")) parsed.only = true;
  for (const name of ["$top", "$skip"] as const) {
    const raw = params.get(name);
    if (raw === null) continue;
    if (!/^\d+$/.test(raw)) return { ok: false, parameter: name, value: raw };
    parsed[name === "$top" ? "top" : "skip"] = Number(raw);
  }
  const expand = params.get("$expand");
  if (expand !== null) {
    const match = EXPAND.exec(expand);
    if (!match) return { ok: false, parameter: "$expand", value: expand };
    const levels = Math.min(MAX_EXPAND_LEVELS, Number(match[2] ?? "1"));
    if (levels < 1) return { ok: false, parameter: "$expand", value: expand };
    parsed.expand = { kind: match[1] as ExpandKind, levels };
  }
  return { ok: true, query: parsed };
}

/**
 * Client-driven (`$top`/`$skip`) and server-driven (`pageSize`) paging of a collection, as the DMTF mockup server
 * pages: a window of `Members`, `Members@odata.count` kept at the full count, and `Members@odata.nextLink` (same
 * `$top`) while members remain.
 */
export function pageCollection(
  body: JsonObject,
  pathname: string,
  query: ResourceQuery,
  pageSize: number | undefined,
): JsonObject {
  const members = body.Members;
  if (!Array.isArray(members)) return body;
  const skip = query.skip ?? 0;
  const limit = Math.min(query.top ?? Number.POSITIVE_INFINITY, pageSize ?? Number.POSITIVE_INFINITY);
  if (skip === 0 && limit >= members.length) return body;
  const page = members.slice(skip, skip + limit);
  const consumed = Math.min(members.length, skip + page.length);
  const count =
    typeof body["Members@odata.count"] === "number" ? body["Members@odata.count"] : members.length;
  const { "Members@odata.nextLink": capturedNextLink, ...rest } = body;
  const nextLink =
    consumed < members.length
      ? `${pathname}?$skip=${consumed}${query.top === undefined ? "" : `&$top=${query.top}`}`
      : // A capture that saved only its first page keeps pointing at the page it saved next.
        capturedNextLink;
  return {
    ...rest,
    "Members@odata.count": count,
    Members: page,
    ...(nextLink !== undefined ? { "Members@odata.nextLink": nextLink } : {}),
  };
}

/** Reads a linked resource for expansion; undefined leaves the link as it is. */
export type ExpandReader = (path: string) => Promise<JsonObject | undefined>;

/** Replaces the selected links by the resources they point to, `levels` deep. */
export async function expandResource(
  body: JsonObject,
  expand: NonNullable<ResourceQuery["expand"]>,
  read: ExpandReader,
): Promise<JsonObject> {
  const expanded: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    expanded[key] = await expandValue(value, key === "Links", expand, read);
  }
  return expanded;
}

async function expandValue(
  value: JsonValue,
  inLinks: boolean,
  expand: NonNullable<ResourceQuery["expand"]>,
  read: ExpandReader,
): Promise<JsonValue> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => expandValue(item, inLinks, expand, read)));
  if (!isJsonObject(value)) return value;
  const target = pureLinkTarget(value);
  if (target !== undefined) {
    const wanted = expand.kind === "*" || (expand.kind === "." ? !inLinks : inLinks);
    if (!wanted) return value;
    const resource = await read(target);
    if (!resource) return value;
    return expand.levels > 1
      ? expandResource(resource, { ...expand, levels: expand.levels - 1 }, read)
      : resource;
  }
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = await expandValue(child, inLinks || key === "Links", expand, read);
  }
  return out;
}

/** `{"@odata.id": "/redfish/v1/…"}` with only OData annotations and no JSON-pointer fragment. */
function pureLinkTarget(value: JsonObject): string | undefined {
  const id = value["@odata.id"];
  if (typeof id !== "string" || id.includes("#")) return undefined;
  return Object.keys(value).every((key) => key.startsWith("@odata.")) ? id : undefined;
}
