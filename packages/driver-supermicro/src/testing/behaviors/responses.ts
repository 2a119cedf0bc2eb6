import type { MockupResponse } from "@racksmith/testkit";

const HEADERS = { "odata-version": "4.0" } as const;

/** 204, what Supermicro answers to an accepted PATCH or action. */
export const NO_CONTENT: MockupResponse = { status: 204, headers: HEADERS };

/** A Redfish error body with one `@Message.ExtendedInfo` entry (Base or SMC registry). */
export function redfishRefusal(
  status: number,
  messageId: string,
  message: string,
  args: readonly string[] = [],
): MockupResponse {
  return {
    status,
    headers: { ...HEADERS, "content-type": "application/json; charset=utf-8" },
    body: {
      error: {
        code: messageId,
        message,
        "@Message.ExtendedInfo": [
          { MessageId: messageId, Message: message, MessageArgs: [...args], Severity: "Warning" },
        ],
      },
    },
  };
}

/** 400 PropertyUnknown, as Supermicro answers a property the resource does not have. */
export function propertyUnknown(property: string): MockupResponse {
  return redfishRefusal(
    400,
    "Base.1.10.3.PropertyUnknown",
    `The property ${property} is not in the list of valid properties for the resource.`,
    [property],
  );
}

/** 400 PropertyValueNotInList. */
export function valueNotInList(value: string, property: string): MockupResponse {
  return redfishRefusal(
    400,
    "Base.1.10.3.PropertyValueNotInList",
    `The value ${value} for the property ${property} is not in the list of acceptable values.`,
    [value, property],
  );
}
