import { redfishError } from "../redfishMessages.js";
import type { MockupResponse } from "../types.js";
import type { StrictRules } from "./rules.js";

/** The methods this service implements; any other is 501 (DSP0266: a method the service does not know). */
const IMPLEMENTED_METHODS = new Set(["GET", "HEAD", "PATCH", "POST", "PUT", "DELETE", "OPTIONS"]);

/** The OData version of every Redfish service. */
const ODATA_VERSION = "4.0";

/** 501 for a method outside HTTP's and Redfish's set. */
export function unknownMethod(rules: StrictRules, method: string): MockupResponse | undefined {
  if (!rules.enforces("methods") || IMPLEMENTED_METHODS.has(method)) return undefined;
  return redfishError(501, "GeneralError", [], {
    message: `The method ${method} is not implemented by this service.`,
    resolution: "Use GET, HEAD, PATCH, POST or DELETE.",
  });
}

/** 412 for a request that asks for an OData version the service does not speak. */
export function checkOdataVersion(
  rules: StrictRules,
  headers: Readonly<Record<string, string>>,
): MockupResponse | undefined {
  const asked = headers["odata-version"];
  if (asked === undefined || !rules.enforces("odataVersion") || asked.trim() === ODATA_VERSION)
    return undefined;
  return redfishError(412, "GeneralError", [], {
    message: `OData-Version ${asked.slice(0, 32)} is not supported; this service supports ${ODATA_VERSION}.`,
    resolution: `Send OData-Version: ${ODATA_VERSION}, or no OData-Version header.`,
  });
}
