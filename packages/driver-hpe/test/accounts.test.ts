import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NO_LOCKOUT_LOGIN_POLICY } from "../src/accounts/index.js";
import { at, hpeMockup, MOCKUPS } from "./support/mockups.js";

const ACCOUNTS = "/redfish/v1/AccountService/Accounts";
const SERVICE = "/redfish/v1/AccountService";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

describe("accounts", () => {
  it("creates an iLO account without the Enabled property iLO lacks, with its login name", async () => {
    const created = await bmc.driver.createAccount("rsdeploy", "Deploy-Pass-1", "ReadOnly");
    expect(created).toMatchObject({ userName: "rsdeploy", roleId: "ReadOnly" });
    expect(bmc.takeWrites()).toEqual([
      {
        method: "POST",
        path: ACCOUNTS,
        body: {
          UserName: "rsdeploy",
          Password: "Deploy-Pass-1",
          RoleId: "ReadOnly",
          Oem: { Hpe: { LoginName: "rsdeploy" } },
        },
      },
    ]);
    expect((await bmc.driver.accounts()).map((account) => account.userName)).toEqual([
      "root",
      "rsoperator",
      "rsdeploy",
    ]);
    await bmc.driver.deleteAccount("rsdeploy");
  });
});

describe("password policy", () => {
  it("turns 'no lockout' into NICo's iLO login policy (iLO delays logins, it never locks accounts)", async () => {
    await bmc.driver.setPasswordPolicy({
      lockoutThreshold: 0,
      lockoutDurationSeconds: 0,
      lockoutCounterResetAfterSeconds: 0,
    });
    expect(bmc.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: SERVICE,
        body: {
          Oem: {
            Hpe: {
              AuthFailureDelayTimeSeconds: 2,
              AuthFailureLoggingThreshold: 0,
              AuthFailuresBeforeDelay: 0,
              EnforcePasswordComplexity: false,
            },
          },
        },
      },
    ]);
    expect(at(await bmc.read(SERVICE), "Oem", "Hpe")).toMatchObject(NO_LOCKOUT_LOGIN_POLICY);
  });

  it("maps a threshold and delay to iLO's values and the minimum length to the standard property", async () => {
    await bmc.driver.setPasswordPolicy({
      lockoutThreshold: 3,
      lockoutDurationSeconds: 10,
      minPasswordLength: 12,
    });
    expect(bmc.takeWrites()[0]?.body).toEqual({
      MinPasswordLength: 12,
      Oem: { Hpe: { AuthFailuresBeforeDelay: 3, AuthFailureDelayTimeSeconds: 10 } },
    });
    expect(await bmc.driver.passwordPolicy()).toEqual({ minPasswordLength: 12 });
  });

  it.each([
    [
      { lockoutThreshold: 4 },
      "invalid_argument",
      /lockoutThreshold 4 is not possible on iLO \(allowed: 1, 3, 5\)/,
    ],
    [{ lockoutDurationSeconds: 7 }, "invalid_argument", /allowed: 2, 5, 10, 30/],
    [{ maxPasswordLength: 64 }, "not_supported", /maximum password length is fixed/],
    [{ lockoutThreshold: 3, lockoutCounterResetAfterSeconds: 60 }, "not_supported", /failure-counter window/],
    [{}, "invalid_argument", /no setting to change/],
  ])("refuses %j without writing anything", async (policy, code, message) => {
    await expect(bmc.driver.setPasswordPolicy(policy)).rejects.toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
    expect(bmc.takeWrites()).toEqual([]);
  });
});
