import { hasErrorCode } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, SERIAL_CONSOLE, xccMockup } from "./support/lenovoMockups.js";

const BIOS = "/redfish/v1/Systems/1/Bios";
const PENDING = `${BIOS}/Pending`;
const MANAGER = "/redfish/v1/Managers/1";

const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

describe("BIOS on the SR670 V2", () => {
  it("refuses an unconditional write of Bios/Pending, as XCC does (428)", async () => {
    const error = await xcc.client
      .request("PATCH", PENDING, { body: { Attributes: { Memory_PatrolScrub: "Disabled" } } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      httpStatus: 428,
      messages: [{ messageId: "Base.1.8.PreconditionRequired" }],
    });
  });

  it("stages attributes in Bios/Pending with the object's current ETag, and reads them back as pending", async () => {
    const driver = xcc.createDriver();
    const { etag } = await xcc.client.getResponse(PENDING);
    expect(
      await driver.setBios({ Memory_PatrolScrub: "Disabled", NetworkStackSettings_PXEbootwaittime: 3 }),
    ).toBeUndefined();
    expect(xcc.writes).toEqual([
      {
        method: "PATCH",
        path: PENDING,
        body: { Attributes: { Memory_PatrolScrub: "Disabled", NetworkStackSettings_PXEbootwaittime: 3 } },
        ifMatch: etag,
      },
    ]);
    expect(await driver.pendingBios()).toEqual({
      Memory_PatrolScrub: "Disabled",
      NetworkStackSettings_PXEbootwaittime: 3,
    });
    expect((await driver.bios()).Memory_PatrolScrub).toBe("Enabled");
  });

  it("clears pending attributes by staging their current values", async () => {
    const driver = xcc.createDriver();
    await driver.setBios({ Memory_PatrolScrub: "Disabled" });
    xcc.clearWrites();
    await driver.clearPendingBios();
    expect(xcc.writes.map((r) => r.body)).toEqual([{ Attributes: { Memory_PatrolScrub: "Enabled" } }]);
    expect(await driver.pendingBios()).toEqual({});
    xcc.clearWrites();
    await driver.clearPendingBios();
    expect(xcc.writes).toEqual([]);
  });

  it("applies staged attributes at the next boot", async () => {
    const driver = xcc.createDriver();
    await driver.setBios({ Memory_PatrolScrub: "Disabled" });
    await driver.power("GracefulRestart");
    expect((await driver.bios()).Memory_PatrolScrub).toBe("Disabled");
    expect(await driver.pendingBios()).toEqual({});
  });

  it("requests a TPM clear as a pending one-shot operation that POST carries out", async () => {
    const driver = xcc.createDriver();
    await driver.clearTpm();
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [PENDING, { Attributes: { TrustedComputingGroup_DeviceOperation: "Clear" } }],
    ]);
    expect(await driver.pendingBios()).toEqual({ TrustedComputingGroup_DeviceOperation: "Clear" });
    await driver.power("ForceRestart");
    expect((await driver.bios()).TrustedComputingGroup_DeviceOperation).toBe("None");
    expect(await driver.pendingBios()).toEqual({});
  });

  it("resets the BIOS to defaults with ResetType Reset", async () => {
    await xcc.createDriver().resetBios();
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [`${BIOS}/Actions/Bios.ResetBios`, { ResetType: "Reset" }],
    ]);
  });

  it("changes the UEFI admin password under XCC's name for it", async () => {
    expect(await xcc.createDriver().changeUefiPassword("", "Uefi-Secret-1")).toBeUndefined();
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [
        `${BIOS}/Actions/Bios.ChangePassword`,
        { PasswordName: "UefiAdminPassword", OldPassword: "", NewPassword: "Uefi-Secret-1" },
      ],
    ]);
  });

  it("refuses an empty attribute set", async () => {
    expect(
      hasErrorCode(
        await xcc
          .createDriver()
          .setBios({})
          .catch((e: unknown) => e),
        "invalid_argument",
      ),
    ).toBe(true);
  });
});

describe("serial console on the SR670 V2", () => {
  it("is enabled when COM1 redirection is shared with the XCC and its serial console service is on", async () => {
    const status = await xcc.createDriver().serialConsoleStatus();
    expect(status.state).toBe("enabled");
    expect(status.message).toMatch(
      /^enabled: DevicesandIOPorts_COMPort1=Enabled, .*, XCC serial console service$/,
    );
  });

  it("stages the BIOS side, turns the service on, and reports enabled only once the host rebooted", async () => {
    await xcc.service.merge(BIOS, {
      Attributes: {
        DevicesandIOPorts_ConsoleRedirection: "Disabled",
        DevicesandIOPorts_SerialPortAccessMode: "Dedicated",
      },
    });
    await xcc.service.merge(MANAGER, { SerialConsole: { ServiceEnabled: false } });
    const driver = xcc.createDriver();
    expect(await driver.serialConsoleStatus()).toMatchObject({ state: "partial" });

    await driver.setupSerialConsole();
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [
        PENDING,
        {
          Attributes: SERIAL_CONSOLE,
        },
      ],
      [MANAGER, { SerialConsole: { ServiceEnabled: true } }],
    ]);
    const staged = await driver.serialConsoleStatus();
    expect(staged.state).toBe("partial");
    expect(staged.message).toMatch(
      /disabled: DevicesandIOPorts_ConsoleRedirection=Enabled, DevicesandIOPorts_SerialPortAccessMode=Shared; staged for the next boot: DevicesandIOPorts_ConsoleRedirection, DevicesandIOPorts_SerialPortAccessMode$/,
    );
    await driver.power("ForceRestart");
    expect((await driver.serialConsoleStatus()).state).toBe("enabled");
  });

  it("is disabled when nothing is set up", async () => {
    await xcc.service.merge(BIOS, {
      Attributes: {
        DevicesandIOPorts_COMPort1: "Disabled",
        DevicesandIOPorts_ConsoleRedirection: "Disabled",
        DevicesandIOPorts_SPRedirection: "Disabled",
        DevicesandIOPorts_SerialPortSharing: "Disabled",
        DevicesandIOPorts_COMPortActiveAfterBoot: "Disabled",
        DevicesandIOPorts_SerialPortAccessMode: "Disabled",
      },
    });
    await xcc.service.merge(MANAGER, { SerialConsole: { ServiceEnabled: false } });
    expect((await xcc.createDriver().serialConsoleStatus()).state).toBe("disabled");
  });
});
