import type { JsonObject } from "./json.js";
import { jsonResponse } from "./responses.js";
import type { MockupResponse } from "./types.js";

/** The Base registry version the mockup speaks; clients match MessageIds by suffix. */
export const BASE_REGISTRY = "Base.1.8";

interface MessageTemplate {
  readonly message: string;
  readonly severity: "OK" | "Warning" | "Critical";
  readonly resolution: string;
}

const TEMPLATES = {
  GeneralError: {
    message: "A general error has occurred. See Resolution for information on how to resolve the error.",
    severity: "Critical",
    resolution: "None.",
  },
  ResourceMissingAtURI: {
    message: "The resource at the URI '%1' was not found.",
    severity: "Critical",
    resolution: "Place a valid resource at the URI or correct the URI and resubmit the request.",
  },
  MalformedJSON: {
    message:
      "The request body submitted was malformed JSON and could not be parsed by the receiving service.",
    severity: "Critical",
    resolution: "Ensure that the request body is valid JSON and resubmit the request.",
  },
  PreconditionFailed: {
    message: "The ETag supplied did not match the ETag required to change this resource.",
    severity: "Critical",
    resolution: "Try the operation again using the appropriate ETag.",
  },
  ActionNotSupported: {
    message: "The action %1 is not supported by the resource.",
    severity: "Critical",
    resolution: "The action supplied cannot be resubmitted to the implementation.",
  },
  ActionParameterMissing: {
    message: "The action %1 requires the parameter %2 to be present in the request body.",
    severity: "Critical",
    resolution:
      "Supply the action with the required parameter in the request body when the request is resubmitted.",
  },
  ActionParameterValueNotInList: {
    message: "The value '%1' for the parameter %2 in the action %3 is not in the list of acceptable values.",
    severity: "Warning",
    resolution: "Choose a value from the enumeration list and resubmit the request.",
  },
  QueryParameterValueFormatError: {
    message: "The value '%1' for the parameter %2 is of a different format than the parameter can accept.",
    severity: "Warning",
    resolution: "Correct the value for the query parameter in the request and resubmit the request.",
  },
  NoValidSession: {
    message: "There is no valid session established with the implementation.",
    severity: "Critical",
    resolution: "Establish a session before attempting any operations.",
  },
  PasswordChangeRequired: {
    message:
      "The password provided for this account must be changed before access is granted. PATCH the Password property for this account located at the target URI '%1' to complete this process.",
    severity: "Critical",
    resolution:
      "Change the password for this account using a PATCH to the Password property at the URI provided.",
  },
  ResourceCannotBeDeleted: {
    message: "The delete request failed because the resource requested cannot be deleted.",
    severity: "Critical",
    resolution: "Do not attempt to delete a non-deletable resource.",
  },
  QueryParameterUnsupported: {
    message: "Query parameter '%1' is not supported.",
    severity: "Warning",
    resolution: "Correct or remove the query parameter and resubmit the request.",
  },
  QueryParameterOutOfRange: {
    message: "The value '%1' for the query parameter %2 is out of range %3.",
    severity: "Warning",
    resolution:
      "Reduce the value for the query parameter to a value that is within range and resubmit the request.",
  },
  PropertyUnknown: {
    message: "The property %1 is not in the list of valid properties for the resource.",
    severity: "Warning",
    resolution:
      "Remove the unknown property from the request body and resubmit the request if the operation failed.",
  },
  PropertyNotWritable: {
    message: "The property %1 is a read only property and cannot be assigned a value.",
    severity: "Warning",
    resolution: "Remove the property from the request body and resubmit the request if the operation failed.",
  },
  PropertyMissing: {
    message: "The property %1 is a required property and must be included in the request.",
    severity: "Warning",
    resolution:
      "Ensure that the property is in the request body and has a valid value and resubmit the request if the operation failed.",
  },
  PropertyValueNotInList: {
    message: "The value '%1' for the property %2 is not in the list of acceptable values.",
    severity: "Warning",
    resolution:
      "Choose a value from the enumeration list that the implementation can support and resubmit the request if the operation failed.",
  },
  PropertyValueFormatError: {
    message: "The value '%1' for the property %2 is of a different format than the property can accept.",
    severity: "Warning",
    resolution:
      "Correct the value for the property in the request body and resubmit the request if the operation failed.",
  },
  InsufficientPrivilege: {
    message:
      "There are insufficient privileges for the account or credentials associated with the current session to perform the requested operation.",
    severity: "Critical",
    resolution:
      "Either abandon the operation or change the associated access rights and resubmit the request if the operation failed.",
  },
  Success: { message: "The request completed successfully.", severity: "OK", resolution: "None." },
  Created: { message: "The resource has been created successfully.", severity: "OK", resolution: "None." },
} as const satisfies Record<string, MessageTemplate>;

export type BaseMessageName = keyof typeof TEMPLATES;

/** One `@Message.ExtendedInfo` entry of the Base registry. */
export function baseMessage(name: BaseMessageName, args: readonly string[] = []): JsonObject {
  const template: MessageTemplate = TEMPLATES[name];
  const message = template.message.replace(/%(\d)/g, (_match, n: string) => args[Number(n) - 1] ?? "");
  return {
    "@odata.type": "#Message.v1_1_1.Message",
    MessageId: `${BASE_REGISTRY}.${name}`,
    Message: message,
    MessageArgs: [...args],
    Severity: template.severity,
    MessageSeverity: template.severity,
    Resolution: template.resolution,
  };
}

export interface RedfishErrorOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** Replaces the registry text (GeneralError needs a service-specific message and resolution). */
  readonly message?: string;
  readonly resolution?: string;
}

/** A Redfish error answer: `error.code` is GeneralError, the specific message is in the extended info. */
export function redfishError(
  status: number,
  name: BaseMessageName,
  args: readonly string[] = [],
  options: RedfishErrorOptions = {},
): MockupResponse {
  const info: JsonObject = {
    ...baseMessage(name, args),
    ...(options.message ? { Message: options.message } : {}),
    ...(options.resolution ? { Resolution: options.resolution } : {}),
  };
  return jsonResponse(
    status,
    {
      error: {
        code: `${BASE_REGISTRY}.GeneralError`,
        message: String(info.Message),
        "@Message.ExtendedInfo": [info],
      },
    },
    options.headers,
  );
}

export function resourceMissing(path: string): MockupResponse {
  return redfishError(404, "ResourceMissingAtURI", [path]);
}

export function malformedJson(): MockupResponse {
  return redfishError(400, "MalformedJSON");
}

export function methodNotAllowed(method: string, path: string, allow: string): MockupResponse {
  return redfishError(405, "GeneralError", [], {
    headers: { allow },
    message: `${method} is not allowed on ${path}.`,
    resolution: `Use one of ${allow}.`,
  });
}
