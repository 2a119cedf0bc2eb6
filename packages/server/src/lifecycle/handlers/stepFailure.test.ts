import { RacksmithError } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../db/index.js";
import { RebootHeldError } from "../reboot/index.js";
import { rethrowUnlessStepFailure } from "./stepFailure.js";

describe("rethrowUnlessStepFailure", () => {
  it.each([
    [
      "a reboot a cap holds back",
      new RebootHeldError("host-1", "site-wide cap of 2 reboots in flight reached"),
      true,
    ],
    [
      "a database gone while reading credentials",
      new DatabaseUnavailableError("postgres://db", "terminated"),
      true,
    ],
    [
      "the BMC refusing the step",
      new RacksmithError("redfish_http_error", "UNAVAILABLE", "500 from the BMC"),
      false,
    ],
    ["anything else the BMC call threw", new Error("socket hang up"), false],
  ])("%s: rethrown %s", (_name, error, rethrown) => {
    const run = () => rethrowUnlessStepFailure(error);
    if (rethrown) expect(run).toThrow(error);
    else expect(run).not.toThrow();
  });
});
