import { PasswordChangeRequiredError } from "@racksmith/core/redfish";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hpeDriverDefinition } from "../src/index.js";
import { hpeMockup, MOCKUPS } from "./support/mockups.js";

// An iLO that still has its factory password: everything but the password change is refused with 403.
const bmc = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  hpeMockup(MOCKUPS.gen11, { auth: "password-change-required" }),
);

describe("a BMC that requires a password change first", () => {
  it("is still detected (the service root is open), and every operation fails with a typed error", async () => {
    const { probe, driver } = bmc;
    expect(hpeDriverDefinition.detect(probe.serviceRoot, probe)).toBe(95);
    for (const operation of [
      () => driver.lockdownStatus(),
      () => driver.machineSetup({}),
      () => driver.bios(),
    ]) {
      const error = await operation().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PasswordChangeRequiredError);
      expect(error).toMatchObject({ code: "password_change_required", httpStatus: 403 });
      expect(
        JSON.stringify({
          message: (error as Error).message,
          details: (error as PasswordChangeRequiredError).details,
        }),
      ).not.toContain(bmc.credentials.password);
    }
  });
});
