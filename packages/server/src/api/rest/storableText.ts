import type { FastifyInstance } from "fastify";
import { childPath, findBadText } from "../input/index.js";
import { invalidRequest, type RequestLocation } from "./invalidRequest.js";

/**
 * The first query parameter whose percent-encoding is not UTF-8 (`%ED%A0%80`, a lone surrogate; `%FF`; a
 * stray `%`). fastify keeps such a value as its raw text; the service refuses it instead.
 */
export function badQueryEncoding(url: string): string | undefined {
  const query = url.indexOf("?");
  if (query < 0) return undefined;
  for (const pair of url.slice(query + 1).split("&")) {
    const equals = pair.indexOf("=");
    const rawKey = equals < 0 ? pair : pair.slice(0, equals);
    const key = decoded(rawKey);
    if (key === undefined || (equals >= 0 && decoded(pair.slice(equals + 1)) === undefined)) {
      return childPath("querystring", key ?? rawKey);
    }
  }
  return undefined;
}

function decoded(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * Refuses, before the schemas run, any request whose path parameters, query or body hold text PostgreSQL
 * cannot store (a NUL byte, a lone surrogate) or a query value that is not UTF-8: 400 `invalid_request`
 * naming the field (`params.id`, `body.interfaces[0].device`).
 */
export function rejectUnstorableText(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const badEncoding = badQueryEncoding(request.url);
    if (badEncoding) throw invalidRequest("querystring", badEncoding, "is not percent-encoded UTF-8");
    const parts: Array<[RequestLocation, unknown]> = [
      ["params", request.params],
      ["querystring", request.query],
      ["body", request.body],
    ];
    for (const [location, value] of parts) {
      const bad = findBadText(value, location);
      if (bad) throw invalidRequest(location, bad.field, bad.problem);
    }
  });
}
