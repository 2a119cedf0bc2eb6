import { createHash } from "node:crypto";
import { isJsonObject, type JsonObject, type JsonValue, withoutKeyDeep } from "./json.js";

/** A JSON resource: the body as served (already stripped of `@Redfish.Copyright`). */
export interface MockupJsonDocument {
  readonly kind: "json";
  readonly body: JsonObject;
  readonly etag: string;
  /** 200, or the error status a captured error document (`{"error": …}` only) is served with. */
  readonly status: number;
  /** GET headers captured in `headers.json`, lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Anything that is not a JSON object: `$metadata` and schema XML, or a capture whose JSON is broken. */
export interface MockupTextDocument {
  readonly kind: "text";
  readonly text: string;
  readonly contentType: string;
  readonly etag: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

export type MockupDocument = MockupJsonDocument | MockupTextDocument;

/** A strong, quoted ETag derived from content. */
export function contentEtag(content: string): string {
  return `"${createHash("sha256").update(content).digest("hex").slice(0, 16)}"`;
}

/** Builds the document served for an `index.json` file; broken JSON is served unchanged as text. */
export function jsonFileDocument(text: string, headers: Record<string, string>): MockupDocument {
  const etag = contentEtag(text);
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return { kind: "text", text, contentType: "application/json", etag, status: 200, headers };
  }
  if (!isJsonObject(parsed)) {
    return { kind: "text", text, contentType: "application/json", etag, status: 200, headers };
  }
  const body = withoutKeyDeep(parsed, "@Redfish.Copyright") as JsonObject;
  return { kind: "json", body, etag, status: capturedErrorStatus(body), headers };
}

/**
 * Mockup-Creator stores a BMC's error answer as the resource; serve it as an error again: 404 when it says the
 * resource is missing, else 400 (license and "not supported" answers).
 */
function capturedErrorStatus(body: JsonObject): number {
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== "error") return 200;
  return /ResourceNotFound|ResourceMissingAtURI|NotFound/i.test(JSON.stringify(body.error)) ? 404 : 400;
}

const IGNORED_CAPTURED_HEADERS = new Set([
  "content-length",
  "content-type",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "set-cookie",
  "x-auth-token",
  "odata-version",
]);

/** Reads Mockup-Creator's `headers.json` (`{"GET": {...}}`, or a flat header map) into lower-cased headers. */
export function capturedGetHeaders(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isJsonObject(parsed)) return {};
  const source = isJsonObject(parsed.GET) ? parsed.GET : parsed;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    const lower = name.toLowerCase();
    if (typeof value === "string" && !IGNORED_CAPTURED_HEADERS.has(lower)) headers[lower] = value;
  }
  return headers;
}
