import type { JsonObject } from "./json.js";
import { expandResource, pageCollection, parseResourceQuery } from "./query.js";
import { redfishError, resourceMissing } from "./redfishMessages.js";
import { resourceKey } from "./resourcePath.js";
import { jsonResponse, textResponse } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import { readTaskMonitor } from "./tasks.js";
import type { MockupResponse } from "./types.js";

const REDFISH_VERSIONS: JsonObject = { v1: "/redfish/v1/" };

/**
 * GET (and HEAD): the resource as stored, with `$top`/`$skip`/`$expand` and server-driven paging applied to
 * collections, task monitors answered 202/200, and captured headers merged under ours.
 */
export async function handleGet(core: ServiceCore, request: ServiceRequest): Promise<MockupResponse> {
  const { state, settings } = core;
  if (resourceKey(request.pathname) === "/redfish") return jsonResponse(200, REDFISH_VERSIONS);
  const monitor = await readTaskMonitor(state, request.pathname);
  if (monitor) return monitor;

  // A capture may hold a followed next-link page as its own folder (`DellSlots?$skip=50`): serve it as saved.
  if (request.query !== "") {
    const page = await state.tree.read(`${request.pathname}?${request.query}`);
    if (page?.kind === "json")
      return jsonResponse(page.status, page.body, { ...page.headers, etag: page.etag });
  }

  const document = await state.read(request.pathname);
  if (!document) return resourceMissing(request.pathname);
  const headers = { ...document.headers, etag: document.etag };
  if (document.kind === "text")
    return textResponse(document.status, document.text, document.contentType, headers);
  if (document.status !== 200) return jsonResponse(document.status, document.body, headers);

  const parsed = parseResourceQuery(request.query);
  if (!parsed.ok)
    return redfishError(400, "QueryParameterValueFormatError", [parsed.value, parsed.parameter]);
  let body = pageCollection(document.body, request.pathname, parsed.query, settings.pageSize);
  if (parsed.query.expand) {
    body = await expandResource(body, parsed.query.expand, async (path) => {
      const linked = await state.read(path);
      return linked?.kind === "json" && linked.status === 200 ? linked.body : undefined;
    });
  }
  return jsonResponse(200, body, headers);
}
