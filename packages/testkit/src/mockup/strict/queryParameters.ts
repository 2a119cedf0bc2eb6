import { redfishError } from "../redfishMessages.js";
import type { MockupResponse } from "../types.js";
import type { StrictRules } from "./rules.js";

/** The `$` parameters this service implements; DSP0266 wants 501 for any other. */
const SUPPORTED_DOLLAR_PARAMETERS = new Set(["$top", "$skip", "$expand"]);
/** Parameters defined without a value: one with a value is a client error (400). */
const VALUELESS_PARAMETERS = new Set(["only"]);

/**
 * Checks a GET's query string: 501 for an unsupported `$` parameter, 400 for a value on `only`; parameters not
 * starting with `$` that the service does not know are ignored, as the specification requires.
 */
export function checkQueryParameters(rules: StrictRules, query: string): MockupResponse | undefined {
  if (query === "" || !rules.enforces("queryParameters")) return undefined;
  for (const [name, value] of new URLSearchParams(query)) {
    if (name.startsWith("$") && !SUPPORTED_DOLLAR_PARAMETERS.has(name)) {
      return redfishError(501, "QueryParameterUnsupported", [name.slice(0, 64)]);
    }
    if (VALUELESS_PARAMETERS.has(name) && value !== "") {
      return redfishError(400, "QueryParameterValueFormatError", [value.slice(0, 64), name]);
    }
  }
  return undefined;
}
