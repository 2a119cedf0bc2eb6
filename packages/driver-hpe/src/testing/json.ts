import type { JsonObject, JsonValue, MockupResponse } from "@racksmith/testkit";

// Small JSON and response helpers so this entry point needs @racksmith/testkit for types only.

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function field(value: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

export function linkOf(value: JsonValue | undefined): string | undefined {
  const id = field(value, "@odata.id");
  return typeof id === "string" ? id : undefined;
}

export function strings(value: JsonValue | undefined): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

const HEADERS = { "odata-version": "4.0" };

export function noContent(): MockupResponse {
  return { status: 204, headers: HEADERS };
}

/** An error the way iLO words it: a generic code, the specific MessageId in the extended info. */
export function iloError(status: number, messageId: string, message: string): MockupResponse {
  return {
    status,
    headers: { ...HEADERS, "content-type": "application/json; charset=utf-8" },
    body: {
      error: {
        code: "iLO.0.10.ExtendedInfo",
        message: "See @Message.ExtendedInfo for more information.",
        "@Message.ExtendedInfo": [{ MessageId: messageId, Message: message }],
      },
    },
  };
}
