import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BIOS, DellMockup, idracError, JOBS, MANAGER } from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const ACCOUNTS = "/redfish/v1/AccountService/Accounts";
const CHANGE_PASSWORD = `${BIOS}/Actions/Bios.ChangePassword`;
const IMPORT_SCP = `${MANAGER}/Actions/Oem/EID_674_Manager.ImportSystemConfiguration`;

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));

describe("accounts", () => {
  it("are created in the first free slot of the fixed table, and freed again on delete", async () => {
    const created = await mockup.driver.createAccount("ops", "Ops-Pass-2024", "Operator");
    expect(created).toEqual({ id: "3", userName: "ops", roleId: "Operator", enabled: true, locked: false });
    expect(mockup.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: `${ACCOUNTS}/3`,
        body: { UserName: "ops", Password: "Ops-Pass-2024", RoleId: "Operator", Enabled: true },
      },
    ]);
    expect(await mockup.driver.accounts()).toHaveLength(16);
    await expect(mockup.driver.createAccount("ops", "x-Pass-2024", "ReadOnly")).rejects.toMatchObject({
      code: "account_exists",
    });

    await mockup.driver.deleteAccount("ops");
    expect(mockup.takeWrites().map((r) => r.body)).toEqual([
      { Enabled: false, RoleId: "None" },
      { UserName: "" },
    ]);
    expect((await mockup.driver.accounts()).find((a) => a.id === "3")).toMatchObject({
      userName: "",
      enabled: false,
    });
  });

  it("cannot be created when all slots are taken", async () => {
    for (let slot = 3; slot <= 16; slot++) {
      await mockup.service.merge(`${ACCOUNTS}/${slot}`, { UserName: `user${slot}`, Enabled: true });
    }
    try {
      await expect(mockup.driver.createAccount("one-more", "Pass-2024-x", "ReadOnly")).rejects.toMatchObject({
        code: "account_slots_full",
        status: "RESOURCE_EXHAUSTED",
      });
    } finally {
      for (let slot = 3; slot <= 16; slot++) {
        await mockup.service.merge(`${ACCOUNTS}/${slot}`, { UserName: "", Enabled: false });
      }
    }
  });

  it("never show a new password the BMC echoes in its error", async () => {
    mockup.intercept("PATCH", /Accounts\/3$/, () =>
      idracError(400, "IDRAC.2.8.RAC0171", "The password Bad#Secret99 does not meet the complexity rules."),
    );
    const failure = await mockup.driver
      .createAccount("weak", "Bad#Secret99", "ReadOnly")
      .catch((error: Error) => error);
    expect(failure).toMatchObject({ code: "redfish_http_error" });
    expect(
      JSON.stringify({ message: (failure as Error).message, ...(failure as { details?: object }).details }),
    ).not.toContain("Bad#Secret99");
  });
});

describe("password policy", () => {
  it("reads the iDRAC's lockout values and accepts a policy it already has", async () => {
    expect(await mockup.driver.passwordPolicy()).toEqual({
      lockoutThreshold: 0,
      lockoutDurationSeconds: 0,
      lockoutCounterResetAfterSeconds: 0,
      minPasswordLength: 0,
      maxPasswordLength: 40,
    });
    await expect(
      mockup.driver.setPasswordPolicy({ lockoutThreshold: 0, lockoutDurationSeconds: 0 }),
    ).resolves.toBeUndefined();
    expect(mockup.takeWrites()).toEqual([]);
  });

  it("refuses to change it, since the iDRAC keeps it read-only", async () => {
    await expect(mockup.driver.setPasswordPolicy({ lockoutThreshold: 5 })).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("read-only (wanted lockoutThreshold=5"),
    });
    await expect(mockup.driver.setPasswordPolicy({})).rejects.toMatchObject({ code: "invalid_argument" });
  });
});

describe("UEFI password", () => {
  it("is changed as the BIOS SetupPassword and applied by a configuration job", async () => {
    const job = await mockup.driver.changeUefiPassword("", "Uefi-Admin-1");
    expect(mockup.takeWrites()).toEqual([
      {
        method: "POST",
        path: CHANGE_PASSWORD,
        body: { PasswordName: "SetupPassword", OldPassword: "", NewPassword: "Uefi-Admin-1" },
      },
      { method: "POST", path: JOBS, body: { TargetSettingsURI: `${BIOS}/Settings` } },
    ]);
    expect(await mockup.driver.jobStatus(job)).toMatchObject({ state: "scheduled" });
  });

  it("is cleared through an SCP import when Bios.ChangePassword refuses to clear it", async () => {
    mockup.intercept("POST", /Bios\.ChangePassword$/, () =>
      idracError(400, "IDRAC.2.8.SYS406", "Unable to clear the setup password Old<&>Pass1."),
    );
    const job = await mockup.driver.changeUefiPassword("Old<&>Pass1", "");
    const requests = mockup.takeWrites();
    expect(requests.at(-1)).toEqual({
      method: "POST",
      path: IMPORT_SCP,
      body: {
        ShareParameters: { Target: "BIOS" },
        ImportBuffer:
          '<SystemConfiguration><Component FQDD="BIOS.Setup.1-1"><Attribute Name="OldSetupPassword">Old&lt;&amp;&gt;Pass1</Attribute><Attribute Name="NewSetupPassword"></Attribute></Component></SystemConfiguration>',
        ShutdownType: "Forced",
      },
    });
    expect(job).toMatchObject({ kind: "job", path: expect.stringContaining("/Jobs/JID_") });
  });

  it("keeps both passwords out of an error the BMC words with them", async () => {
    mockup.intercept("POST", /Bios\.ChangePassword$/, () =>
      idracError(403, "IDRAC.2.8.SYS405", "Old password Cur-Pass-9 is wrong; New-Pass-9 rejected."),
    );
    const failure = (await mockup.driver
      .changeUefiPassword("Cur-Pass-9", "New-Pass-9")
      .catch((e: unknown) => e)) as Error;
    const text = JSON.stringify({
      message: failure.message,
      details: (failure as { details?: object }).details,
    });
    expect(text).toContain("[redacted]");
    expect(text).not.toMatch(/Cur-Pass-9|New-Pass-9/);
  });
});

describe("firmware", () => {
  it("uploads multipart with the (empty) Oem object the iDRAC wants, and follows the task", async () => {
    const client = (
      mockup.driver as unknown as { client: { postMultipart: (...args: unknown[]) => Promise<unknown> } }
    ).client;
    const upload = vi.spyOn(client, "postMultipart");
    const ref = await mockup.driver.updateFirmware({
      method: "multipart",
      filename: "BIOS_R750_1.10.2.exe",
      data: new Uint8Array([1, 2, 3]),
      applyTime: "OnReset",
    });
    expect(upload).toHaveBeenCalledWith(
      "/redfish/v1/UpdateService/MultipartUpload",
      {
        parameters: { Targets: [], "@Redfish.OperationApplyTime": "OnReset", Oem: {} },
        file: { filename: "BIOS_R750_1.10.2.exe", data: new Uint8Array([1, 2, 3]) },
      },
      { timeoutMs: 1_800_000 },
    );
    expect(ref).toMatchObject({
      kind: "task",
      path: expect.stringMatching(/\/TaskService\/Tasks\/\d+\/Monitor$/),
    });
    expect(await mockup.driver.jobStatus(ref)).toMatchObject({
      state: expect.stringMatching(/running|completed/),
    });
  });
});
