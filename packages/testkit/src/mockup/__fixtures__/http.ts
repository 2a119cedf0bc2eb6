import type { JsonObject } from "../json.js";

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as a JSON object ({} when it is not one). */
  readonly json: JsonObject;
}

/** One raw HTTP request, so tests see exact statuses and headers (the Redfish client retries and throws). */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const raw = typeof options.body === "string" || options.body instanceof Uint8Array;
  const body =
    options.body === undefined
      ? undefined
      : raw
        ? (options.body as string | Uint8Array)
        : JSON.stringify(options.body);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body !== undefined && !raw ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: JsonObject = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as JsonObject;
  } catch {
    // not JSON: json stays empty, text has the body
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The MessageIds of a Redfish error (or `@Message.ExtendedInfo`) body. */
export function messageIds(body: JsonObject): string[] {
  const error = body.error as JsonObject | undefined;
  const infos = (error?.["@Message.ExtendedInfo"] ?? body["@Message.ExtendedInfo"]) as
    | JsonObject[]
    | undefined;
  return (infos ?? []).map((info) => String(info.MessageId));
}

export function basicAuth(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
}
