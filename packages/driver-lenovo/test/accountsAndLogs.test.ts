import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, xccMockup } from "./support/lenovoMockups.js";

const LOGS = "/redfish/v1/Systems/1/LogServices";

const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

describe("accounts", () => {
  it("changes a password with the account's current ETag, so XCC never answers 428", async () => {
    const driver = xcc.createDriver();
    const created = await driver.createAccount("rsops", "Initial-Pass-1", "Operator");
    const path = `/redfish/v1/AccountService/Accounts/${created.id}`;
    const { etag } = await xcc.client.getResponse(path);
    xcc.clearWrites();
    await driver.changePassword("rsops", "Next-Secret-2025");
    expect(xcc.writes).toEqual([
      { method: "PATCH", path, body: { Password: "Next-Secret-2025" }, ifMatch: etag },
    ]);
    await driver.deleteAccount("rsops");
    expect((await driver.accounts()).map((a) => a.userName)).toEqual(["root"]);
  });

  it("sets lockout to XCC's one-minute minimum and makes passwords never expire", async () => {
    const driver = xcc.createDriver();
    await driver.setPasswordPolicy({
      lockoutThreshold: 0,
      lockoutDurationSeconds: 0,
      lockoutCounterResetAfterSeconds: 30,
    });
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [
        "/redfish/v1/AccountService",
        {
          AccountLockoutThreshold: 0,
          AccountLockoutDuration: 60,
          AccountLockoutCounterResetAfter: 60,
          Oem: {
            Lenovo: {
              PasswordExpirationPeriodDays: 0,
              PasswordChangeOnFirstAccess: false,
              MinimumPasswordChangeIntervalHours: 0,
              MinimumPasswordReuseCycle: 0,
              PasswordExpirationWarningPeriod: 0,
            },
          },
        },
      ],
    ]);
    expect(await driver.passwordPolicy()).toMatchObject({ lockoutThreshold: 0, lockoutDurationSeconds: 60 });
  });
});

describe("event logs", () => {
  it("reads the host's events from PlatformLog when the SEL publishes no entries, incrementally", async () => {
    const driver = xcc.createDriver();
    const entries = await driver.systemEventLog();
    expect(entries.map((e) => [e.id, e.severity, e.source])).toEqual([
      ["1", "OK", "PlatformLog"],
      ["2", "Warning", "PlatformLog"],
      ["3", "OK", "PlatformLog"],
    ]);
    expect((await driver.systemEventLog({ sinceId: "2" })).map((e) => e.id)).toEqual(["3"]);
  });

  it("prefers the SEL once it publishes entries", async () => {
    await xcc.service.merge(`${LOGS}/SEL`, { Entries: { "@odata.id": `${LOGS}/SEL/Entries` } });
    xcc.service.write(`${LOGS}/SEL/Entries`, {
      "@odata.id": `${LOGS}/SEL/Entries`,
      Members: [{ "@odata.id": `${LOGS}/SEL/Entries/9` }],
    });
    xcc.service.write(`${LOGS}/SEL/Entries/9`, {
      "@odata.id": `${LOGS}/SEL/Entries/9`,
      Id: "9",
      Created: "2024-07-03T00:00:00+00:00",
      Severity: "Critical",
      Message: "Sensor PSU1 has failed.",
    });
    expect((await xcc.createDriver().systemEventLog()).map((e) => [e.id, e.source])).toEqual([["9", "SEL"]]);
  });

  it("returns no entries, rather than failing, when only an entry-less SEL exists", async () => {
    const collection = (await xcc.service.read(LOGS)) ?? {};
    xcc.service.write(LOGS, { ...collection, Members: [{ "@odata.id": `${LOGS}/SEL` }] });
    expect(await xcc.createDriver().systemEventLog()).toEqual([]);
  });

  it("reads the XCC's audit log as the BMC log, through the manager's link to the system's log services", async () => {
    const driver = xcc.createDriver();
    const entries = await driver.bmcEventLog();
    expect(entries.map((e) => [e.id, e.source])).toEqual([
      ["101", "AuditLog"],
      ["102", "AuditLog"],
    ]);
    expect(await driver.bmcEventLog({ sinceId: "102" })).toEqual([]);
  });
});
