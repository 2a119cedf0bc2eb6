import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { at, hpeMockup, MOCKUPS, SERIAL_CONSOLE } from "./support/mockups.js";

const BIOS = "/redfish/v1/Systems/1/Bios";
const BIOS_SETTINGS = "/redfish/v1/Systems/1/Bios/settings/";
const PROTOCOL = "/redfish/v1/Managers/1/NetworkProtocol";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

describe("BIOS settings", () => {
  it("stages changes at Bios/settings/, shows them pending, clears them, and a reboot applies them", async () => {
    await bmc.driver.setBios({ NetworkBootRetryCount: 5, PowerRegulator: "StaticHighPerf" });
    expect(bmc.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: { Attributes: { NetworkBootRetryCount: 5, PowerRegulator: "StaticHighPerf" } },
      },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({
      NetworkBootRetryCount: 5,
      PowerRegulator: "StaticHighPerf",
    });

    await bmc.driver.clearPendingBios();
    expect(bmc.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: { Attributes: { NetworkBootRetryCount: 20, PowerRegulator: "DynamicPowerSavings" } },
      },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({});

    await bmc.driver.setBios({ PowerRegulator: "StaticHighPerf" });
    await bmc.reboot();
    expect(await bmc.driver.pendingBios()).toEqual({});
    expect((await bmc.driver.bios()).PowerRegulator).toBe("StaticHighPerf");
  });

  it("refuses an empty change", async () => {
    await expect(bmc.driver.setBios({})).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("resets to defaults through the advertised Bios.ResetBios target", async () => {
    await bmc.driver.resetBios();
    expect(bmc.takeWrites()).toEqual([
      { method: "POST", path: "/redfish/v1/systems/1/bios/settings/Actions/Bios.ResetBios/", body: {} },
    ]);
  });
});

describe("serial console", () => {
  it("reads partial on a server not set up yet, naming what is missing", async () => {
    expect(await bmc.driver.serialConsoleStatus()).toEqual({
      state: "partial",
      message:
        "configured: SerialConsoleBaudRate=BaudRate115200, SerialConsoleEmulation=Vt100Plus, SSH=on; " +
        "not configured: EmbeddedSerialPort=Com1Irq4, EmsConsole=Disabled, SerialConsolePort=Auto, " +
        "UefiSerialDebugLevel=Disabled, VirtualSerialPort=Com2Irq3",
    });
  });

  it("stages the BIOS redirection to iLO's virtual serial port and reads enabled", async () => {
    await bmc.driver.setupSerialConsole();
    expect(bmc.takeWrites()).toEqual([
      { method: "PATCH", path: BIOS_SETTINGS, body: { Attributes: SERIAL_CONSOLE } },
    ]);
    const status = await bmc.driver.serialConsoleStatus();
    expect(status.state).toBe("enabled");
    expect(status.message).toContain("EmsConsole=Virtual (staged for next boot)");
    await bmc.reboot();
    expect((await bmc.driver.serialConsoleStatus()).message).toBe(
      `configured: ${Object.entries(SERIAL_CONSOLE)
        .map(([key, value]) => `${key}=${value}`)
        .join(", ")}, SSH=on`,
    );
  });

  it("turns SSH on when it is off, since iLO's virtual serial port is reached over SSH", async () => {
    await bmc.server.service.merge(PROTOCOL, { SSH: { ProtocolEnabled: false } });
    expect((await bmc.driver.serialConsoleStatus()).message).toContain("SSH=off");
    await bmc.driver.setupSerialConsole();
    expect(bmc.takeWrites().at(-1)).toEqual({
      method: "PATCH",
      path: PROTOCOL,
      body: { SSH: { ProtocolEnabled: true } },
    });
    expect((await bmc.driver.serialConsoleStatus()).state).toBe("enabled");
  });
});

describe("TPM clear", () => {
  it("stages Tpm2Operation=Clear; the BIOS performs it at boot and resets the operation", async () => {
    await bmc.driver.clearTpm();
    expect(bmc.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: BIOS_SETTINGS,
        body: { Attributes: { Tpm2Operation: "Clear", TpmVisibility: "Visible" } },
      },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({ Tpm2Operation: "Clear" });
    await bmc.reboot();
    expect(at(await bmc.read(BIOS), "Attributes", "Tpm2Operation")).toBe("NoAction");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("says not supported on a BIOS without TPM 2.0 operations", async () => {
    const bios = await bmc.read(BIOS);
    const { Tpm2Operation: _, ...attributes } = at(bios, "Attributes") as Record<string, string>;
    bmc.server.service.write(BIOS, { ...bios, Attributes: attributes });
    await expect(bmc.driver.clearTpm()).rejects.toMatchObject({
      code: "not_supported",
      message: "TPM clear is not supported: this BIOS has no Tpm2Operation",
    });
    expect(bmc.takeWrites()).toEqual([]);
  });
});

describe("UEFI password", () => {
  const TARGET = "/redfish/v1/systems/1/bios/settings/Actions/Bios.ChangePasswords/";

  it("changes the administrator password through Bios/settings/Actions/Bios.ChangePasswords", async () => {
    expect(await bmc.driver.changeUefiPassword("", "Uefi-First-1")).toBeUndefined();
    expect(bmc.takeWrites()).toEqual([
      {
        method: "POST",
        path: TARGET,
        body: { PasswordName: "AdministratorPassword", OldPassword: "", NewPassword: "Uefi-First-1" },
      },
    ]);
    const wrong = await bmc.driver
      .changeUefiPassword("Not-The-One-9", "Uefi-Second-2")
      .catch((e: Error) => e);
    expect(wrong).toMatchObject({ code: "redfish_http_error", httpStatus: 400 });
    // Neither password may leak into the error a caller logs.
    const seen = JSON.stringify({
      message: (wrong as Error).message,
      details: (wrong as { details?: unknown }).details,
    });
    expect(seen).not.toMatch(/Not-The-One-9|Uefi-Second-2|Uefi-First-1/);
    await expect(bmc.driver.changeUefiPassword("Uefi-First-1", "Uefi-Second-2")).resolves.toBeUndefined();
  });
});
