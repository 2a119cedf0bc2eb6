import {
  PasswordChangeRequiredError,
  RedfishConnectionError,
  RedfishHttpError,
  RedfishMalformedResponseError,
  RedfishTimeoutError,
} from "@racksmith/core/redfish";
import { describe, expect, it } from "vitest";
import { ExplorationError, type ExplorationFailure, toExplorationFailure } from "./explorationFailure.js";

const http = (httpStatus: number, bodyExcerpt = "{}") =>
  new RedfishHttpError({ method: "GET", path: "/redfish/v1/Systems", httpStatus, messages: [], bodyExcerpt });

describe("toExplorationFailure", () => {
  it.each<[string, unknown, Partial<ExplorationFailure>]>([
    [
      "connection refused",
      new RedfishConnectionError("https://10.0.0.1", "ECONNREFUSED"),
      { code: "unreachable" },
    ],
    [
      "timeout",
      new RedfishTimeoutError("https://10.0.0.1", "request", 100, "GET /redfish/v1"),
      { code: "timeout" },
    ],
    [
      "malformed JSON",
      new RedfishMalformedResponseError("GET", "/redfish/v1", "invalid JSON", "{"),
      { code: "malformed_response" },
    ],
    ["401", http(401), { code: "unauthorized" }],
    [
      "500 keeps status and body excerpt",
      http(500, '{"error":"boom"}'),
      { code: "redfish_error", httpStatus: 500, bodyExcerpt: '{"error":"boom"}' },
    ],
    [
      "password change required",
      new PasswordChangeRequiredError({
        method: "GET",
        path: "/x",
        httpStatus: 403,
        messages: [],
        bodyExcerpt: "",
      }),
      { code: "password_change_required" },
    ],
    [
      "the explorer's own",
      new ExplorationError("avoid_lockout", "3 failed logins"),
      { code: "avoid_lockout", message: "3 failed logins" },
    ],
    ["anything else", new Error("bug"), { code: "internal", message: "bug" }],
  ])("%s", (_name, error, expected) => {
    expect(toExplorationFailure(error)).toMatchObject(expected);
  });
});
