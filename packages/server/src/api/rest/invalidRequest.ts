import { RacksmithError } from "@racksmith/core";

/** Where in a request a problem is: fastify's names of the request parts, and the URL itself. */
export type RequestLocation = "body" | "querystring" | "params" | "headers" | "url" | "request";

/**
 * A request the REST layer refuses before any handler runs (`invalid_request`): the message starts with the
 * field (`body.interfaces[0].device: …`), `details` names the location and the field.
 */
export function invalidRequest(location: RequestLocation, field: string, problem: string): RacksmithError {
  return new RacksmithError("invalid_request", "INVALID_ARGUMENT", `${field}: ${problem}`, {
    details: { location, ...(field !== location ? { field } : {}) },
  });
}
