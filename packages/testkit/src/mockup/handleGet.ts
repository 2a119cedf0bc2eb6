import { type JsonObject, linkOf } from "./json.js";
import type { MockupDocument } from "./mockupDocument.js";
import { expandResource, pageCollection, parseResourceQuery } from "./query.js";
import { redfishError, resourceMissing } from "./redfishMessages.js";
import { resourceKey } from "./resourcePath.js";
import { jsonResponse, textResponse } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import { checkQueryParameters, withResourceHeaders } from "./strict/index.js";
import { readTaskMonitor } from "./tasks.js";
import type { MockupResponse } from "./types.js";

const REDFISH_VERSIONS: JsonObject = { v1: "/redfish/v1/" };

/**
 * GET (and HEAD): the resource as stored, with `$top`/`$skip`/`$expand`/`only` and server-driven paging applied
 * to collections, task monitors answered 202/200, captured headers merged under ours, and (strict mode) the
 * `Allow`, `Cache-Control` and `Link` headers every GET carries.
 */
export async function handleGet(core: ServiceCore, request: ServiceRequest): Promise<MockupResponse> {
  if (resourceKey(request.pathname) === "/redfish") return jsonResponse(200, REDFISH_VERSIONS);
  const monitor = await readTaskMonitor(core.state, request.pathname);
  if (monitor) return monitor;
  const refused = checkQueryParameters(core.rules, request.query);
  if (refused) return refused;
  const answer = await readResource(core, request.pathname, request.query);
  return answer.shown
    ? withResourceHeaders(core, answer.shown.path, answer.shown.document, answer.response)
    : answer.response;
}

interface ReadAnswer {
  readonly response: MockupResponse;
  /** The resource the answer shows (the member `only` picked, or the one asked), for its headers. */
  readonly shown?: { readonly path: string; readonly document: MockupDocument };
}

async function readResource(core: ServiceCore, pathname: string, query: string): Promise<ReadAnswer> {
  const { state, settings } = core;
  // A capture may hold a followed next-link page as its own folder (`DellSlots?$skip=50`): serve it as saved.
  if (query !== "") {
    const page = await state.tree.read(`${pathname}?${query}`);
    if (page?.kind === "json")
      return { response: jsonResponse(page.status, page.body, { ...page.headers, etag: page.etag }) };
  }

  const document = await state.read(pathname);
  if (!document) return { response: resourceMissing(pathname) };
  const headers = { ...document.headers, etag: document.etag };
  if (document.kind === "text")
    return {
      response: textResponse(document.status, document.text, document.contentType, headers),
      shown: { path: pathname, document },
    };
  if (document.status !== 200) return { response: jsonResponse(document.status, document.body, headers) };

  const parsed = parseResourceQuery(query);
  if (!parsed.ok)
    return {
      response: redfishError(400, "QueryParameterValueFormatError", [parsed.value, parsed.parameter]),
    };
  const only = parsed.query.only ? onlyMember(document.body) : undefined;
  if (only !== undefined) return readResource(core, only, "");
  let body = pageCollection(document.body, pathname, parsed.query, settings.pageSize);
  if (parsed.query.expand) {
    body = await expandResource(body, parsed.query.expand, (path) => state.readJson(path));
  }
  return { response: jsonResponse(200, body, headers), shown: { path: pathname, document } };
}

/** `?only` on a collection of exactly one member names that member (DSP0266); otherwise the collection. */
function onlyMember(body: JsonObject): string | undefined {
  if (!Array.isArray(body.Members) || body.Members.length !== 1) return undefined;
  return linkOf(body.Members[0]);
}
