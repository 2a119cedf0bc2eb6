import type { JsonObject, MockupResponse } from "@racksmith/testkit";

const JSON_HEADERS = { "odata-version": "4.0", "content-type": "application/json; charset=utf-8" } as const;

function json(status: number, body: JsonObject, headers: Record<string, string> = {}): MockupResponse {
  return { status, headers: { ...headers, ...JSON_HEADERS }, body };
}

/** What an iDRAC answers to a change it accepted (202 + Location when it created a job for it). */
export function accepted(location?: string): MockupResponse {
  const body = {
    "@Message.ExtendedInfo": [
      { MessageId: "Base.1.12.Success", Message: "Successfully Completed Request", Severity: "OK" },
    ],
  };
  return location ? json(202, body, { location }) : json(200, body);
}

/** An iDRAC error body: a general error whose extended info says what is wrong. */
export function refused(
  status: number,
  messageId: string,
  message: string,
  resolution: string,
): MockupResponse {
  return json(status, {
    error: {
      "@Message.ExtendedInfo": [
        {
          Message: message,
          MessageArgs: [],
          MessageId: messageId,
          Resolution: resolution,
          Severity: "Critical",
        },
      ],
      code: "Base.1.12.GeneralError",
      message: "A general error has occurred. See ExtendedInfo for more information",
    },
  });
}

export function jobCommitted(): MockupResponse {
  return refused(
    400,
    "IDRAC.2.8.SYS011",
    "Pending configuration values are already committed, unable to perform another set operation.",
    "Wait for the scheduled job to complete or delete the configuration jobs before attempting more set attribute operations.",
  );
}

export function lockedDown(): MockupResponse {
  return refused(
    400,
    "Base.1.12.GeneralError",
    "Unable to complete the operation because the System Lockdown mode is enabled.",
    "Disable the System Lockdown mode and retry the operation.",
  );
}

export function unknownProperty(name: string): MockupResponse {
  return refused(
    400,
    "Base.1.12.PropertyUnknown",
    `The property ${name} is not in the list of valid properties for the resource.`,
    "Remove the unknown property from the request body and resubmit the request if the operation failed.",
  );
}

export function notInList(value: string, property: string): MockupResponse {
  return refused(
    400,
    "Base.1.12.PropertyValueNotInList",
    `The value ${value} for the property ${property} is not in the list of acceptable values.`,
    "Choose a value from the enumeration list that the implementation can support and resubmit the request.",
  );
}

export function methodNotAllowed(message: string): MockupResponse {
  return refused(405, "Base.1.12.OperationNotAllowed", message, "Use another operation.");
}
