import type { JsonValue } from "./json.js";
import type { MockupRequest } from "./types.js";

export type ParsedBody =
  | { readonly ok: true; readonly value: JsonValue | undefined }
  | { readonly ok: false };

/** Parses a JSON request body; an empty body is `undefined`, text that is not JSON is an error. */
export function parseJsonBody(body: MockupRequest["body"]): ParsedBody {
  if (body === undefined) return { ok: true, value: undefined };
  if (typeof body !== "string" && !(body instanceof Uint8Array)) return { ok: true, value: body };
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false };
  }
}

/** Size of a body in bytes (what an upload log records instead of the bytes). */
export function bodySize(body: MockupRequest["body"]): number {
  if (body === undefined) return 0;
  if (body instanceof Uint8Array) return body.byteLength;
  return Buffer.byteLength(typeof body === "string" ? body : JSON.stringify(body));
}
