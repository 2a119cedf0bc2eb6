import type { JsonObject } from "./json.js";
import type { MockupResponse } from "./types.js";

const ODATA_HEADERS = { "odata-version": "4.0" } as const;

/** A JSON answer with the headers every Redfish response carries. */
export function jsonResponse(
  status: number,
  body: JsonObject,
  headers: Readonly<Record<string, string>> = {},
): MockupResponse {
  return {
    status,
    headers: { ...headers, ...ODATA_HEADERS, "content-type": "application/json; charset=utf-8" },
    body,
  };
}

/** A text answer (`$metadata` XML, or a capture served unchanged). */
export function textResponse(
  status: number,
  text: string,
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): MockupResponse {
  return { status, headers: { ...headers, ...ODATA_HEADERS, "content-type": contentType }, body: text };
}

/** 204, what DMTF services answer to a successful PATCH, DELETE or action. */
export function noContent(headers: Readonly<Record<string, string>> = {}): MockupResponse {
  return { status: 204, headers: { ...headers, ...ODATA_HEADERS } };
}
