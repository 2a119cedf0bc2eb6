import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lenovoDriver } from "../src/index.js";
import { LENOVO_MOCKUPS, xccMockup } from "./support/lenovoMockups.js";

// A fresh XCC (USERID / PASSW0RD) refuses everything until the factory password is changed.
const FACTORY = { username: "USERID", password: "PASSW0RD" };

const xcc = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  xccMockup(LENOVO_MOCKUPS.sr670v2, {
    driver: lenovoDriver,
    auth: "password-change-required",
    credentials: FACTORY,
    probe: false,
  }),
);

describe("an XCC that requires a password change", () => {
  it("fails every operation with password_change_required and never shows the password", async () => {
    const { driver } = xcc;
    for (const operation of [
      () => driver.lockdownStatus(),
      () => driver.bios(),
      () => driver.machineSetupStatus({}),
    ]) {
      const error = await operation().catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "password_change_required",
        status: "PERMISSION_DENIED",
        httpStatus: 403,
      });
      expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(FACTORY.password);
    }
  });
});
