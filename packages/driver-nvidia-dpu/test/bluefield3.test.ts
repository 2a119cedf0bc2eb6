import { hasErrorCode, isNotSupported, REDACTED } from "@racksmith/core";
import { type JsonObject, useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bluefieldError, bluefieldMockup, nicModeRoundTrip, UEFI_HTTP_BOOT_ONCE } from "./support/bmc.js";
import { mockupDir } from "./support/paths.js";

const S = "/redfish/v1/Systems/Bluefield";
const P0 = "B8:3F:D2:AA:10:50";
const P1 = "B8:3F:D2:AA:10:51";
const MODEL = "BlueField-3 SmartNIC Main Card";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, bluefieldMockup(mockupDir("bluefield-3")));

async function read(path: string): Promise<JsonObject | undefined> {
  return bmc.server.service.read(path);
}

/** Brings the DPU to "machine setup done" (the state later tests start from), then forgets the writes. */
async function setUpAndReboot(): Promise<void> {
  await bmc.driver.machineSetup({});
  await bmc.reboot();
  bmc.clearWrites();
}

/** What the system's settings object holds for the next boot. */
async function stagedBoot(): Promise<JsonObject> {
  return ((await read(`${S}/Settings`))?.Boot ?? {}) as JsonObject;
}

describe("BlueField-3: what pairing needs", () => {
  it("knows the generation, the card serial, the base MAC and the mode", async () => {
    expect(await bmc.driver.generation()).toBe(3);
    expect(await bmc.driver.serialNumber()).toBe("MT2451X0RS01");
    expect(await bmc.driver.baseMac()).toBe("B8:3F:D2:AA:10:40");
    expect(await bmc.driver.nicMode()).toBe("dpu");
  });

  it("reports them in the exploration report, with Card1's part number", async () => {
    const report = await bmc.driver.explore();
    expect(report.systems[0]).toMatchObject({
      id: "Bluefield",
      model: MODEL,
      serialNumber: "MT2451X0RS01",
      baseMac: "B8:3F:D2:AA:10:40",
      nicMode: "dpu",
      pcieDevices: [],
    });
    expect(report.chassis.find((c) => c.id === "Card1")).toMatchObject({
      partNumber: "900-9D3B6-00CV-AA0",
      serialNumber: "MT2451X0RS01",
    });
    expect(report.lockdownStatus).toBeUndefined();
    expect(report.machineSetupStatus?.done).toBe(false);
    // Field warnings describe the BMC's own gaps; an operation the driver failed would carry no field.
    expect(report.diagnostics.filter((d) => !d.field && d.severity !== "info")).toEqual([]);
  });

  it("marks what the BMC failed to answer as unread, and only that", async () => {
    bmc.server.addFault({ path: "/redfish/v1/Chassis/Card1", method: "GET", status: 503, count: 10 });
    try {
      const report = await bmc.driver.explore();
      expect(report.diagnostics.filter((d) => d.unread).map((d) => d.path)).toEqual([
        "/redfish/v1/Chassis/Card1",
      ]);
      expect(report.chassis.map((chassis) => chassis.id)).not.toContain("Card1");
    } finally {
      bmc.server.clearFaults();
    }
  });

  it("reports the card serial for the system when the two differ, with a warning", async () => {
    await bmc.server.service.merge(S, { SerialNumber: "MT0000X00000" });
    try {
      const report = await bmc.driver.explore();
      expect(report.systems[0]?.serialNumber).toBe("MT2451X0RS01");
      expect(report.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: "warning",
          path: "/redfish/v1/Chassis/Card1",
          field: "SerialNumber",
        }),
      );
    } finally {
      await bmc.server.service.merge(S, { SerialNumber: "MT2451X0RS01" });
    }
  });
});

describe("BlueField-3: machine setup", () => {
  it("lists what differs before setup", async () => {
    const status = await bmc.driver.machineSetupStatus({});
    expect(status.done).toBe(false);
    expect(status.diffs).toEqual([
      { key: "HostPrivilegeLevel", expected: "Restricted", actual: "Privileged" },
      { key: "SecureBoot", expected: "Disabled", actual: "Enabled" },
      { key: "HostRshim", expected: "Disabled", actual: "Enabled" },
    ]);
  });

  it("sends exactly NICo's DPU setup, then reports done once the DPU rebooted", async () => {
    const result = await bmc.driver.machineSetup({});
    expect(result).toEqual({ rebootRequired: true });
    expect(bmc.writes).toEqual([
      { method: "PATCH", path: `${S}/SecureBoot`, body: { SecureBootEnable: false } },
      {
        method: "PATCH",
        path: `${S}/Bios/Settings`,
        body: { Attributes: { HostPrivilegeLevel: "Restricted", InternalCPUModel: "Embedded" } },
      },
      { method: "POST", path: `${S}/Oem/Nvidia/Actions/HostRshim.Set`, body: { HostRshim: "Disabled" } },
      UEFI_HTTP_BOOT_ONCE,
    ]);
    // Staged, not applied: the BIOS value and the secure boot the DPU runs with change at its next boot.
    expect((await bmc.driver.machineSetupStatus({})).diffs).toEqual([
      { key: "HostPrivilegeLevel", expected: "Restricted", actual: "Privileged" },
      { key: "SecureBoot", expected: "Disabled", actual: "Enabled until the next boot" },
    ]);
    await bmc.reboot();
    expect(await bmc.driver.machineSetupStatus({})).toEqual({ done: true, diffs: [] });
    expect(await stagedBoot()).toMatchObject({ BootSourceOverrideEnabled: "Disabled" });
  });

  it("is idempotent: a second run changes nothing it already set", async () => {
    await setUpAndReboot();
    await bmc.driver.machineSetup({});
    expect(bmc.writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `PATCH ${S}/Bios/Settings`,
      `PATCH ${S}/Settings`,
    ]);
  });

  it("merges the operator's BIOS profile for this model from the config; an explicit profile wins", async () => {
    await setUpAndReboot();
    const driver = bmc.createDriver({
      settings: {
        biosProfiles: { "BlueField-3_SmartNIC_Main_Card": { performance: { L3CachePartitionLevel: 2 } } },
      },
    });
    await driver.machineSetup({});
    expect(bmc.writes[0]).toEqual({
      method: "PATCH",
      path: `${S}/Bios/Settings`,
      body: {
        Attributes: {
          HostPrivilegeLevel: "Restricted",
          InternalCPUModel: "Embedded",
          L3CachePartitionLevel: 2,
        },
      },
    });
    expect((await driver.machineSetupStatus({})).diffs).toEqual([
      { key: "L3CachePartitionLevel", expected: "2", actual: "0" },
    ]);
    bmc.clearWrites();
    await driver.machineSetup({ biosProfile: { EnableSMMU: false } });
    expect(bmc.writes[0]?.body).toEqual({
      Attributes: { HostPrivilegeLevel: "Restricted", InternalCPUModel: "Embedded", EnableSMMU: false },
    });
    await bmc.driver.clearPendingBios();
  });

  it("with a boot MAC also stages the DPU-first boot order and checks it", async () => {
    await bmc.driver.machineSetup({ bootInterfaceMac: P0 });
    expect(bmc.writes.at(-1)).toMatchObject({
      path: `${S}/Settings`,
      body: { Boot: { BootOrder: expect.any(Array) } },
    });
    expect((await bmc.driver.machineSetupStatus({ bootInterfaceMac: P0 })).done).toBe(true);
    expect((await bmc.driver.machineSetupStatus({ bootInterfaceMac: P1 })).diffs).toEqual([
      { key: "BootOrder[0]", expected: `HTTP boot from ${P1}`, actual: "other" },
    ]);
    await bmc.reboot();
  });
});

describe("BlueField-3: boot", () => {
  it("puts the UEFI HTTPv4 option of a MAC first in the staged order, applied at the next boot", async () => {
    const before = (await bmc.driver.bootOptions()).order;
    expect(await bmc.driver.setBootOrderDpuFirst(P1)).toBeUndefined();
    expect((await stagedBoot()).BootOrder).toEqual([
      "Boot0007",
      ...before.filter((ref) => ref !== "Boot0007"),
    ]);
    expect(await bmc.driver.isBootOrderDpuFirst(P1)).toBe(true);
    expect(await bmc.driver.isBootOrderDpuFirst(P0)).toBe(false);
    expect((await bmc.driver.bootOptions()).order).toEqual(before);
    await bmc.reboot();
    expect((await bmc.driver.bootOptions()).order[0]).toBe("Boot0007");
    expect(await bmc.driver.isBootOrderDpuFirst(P1)).toBe(true);
    bmc.clearWrites();
    await bmc.driver.setBootOrderDpuFirst(P1);
    expect(bmc.writes).toEqual([]);
  });

  it("boot-first matches the BlueField entry names, earliest in the boot order", async () => {
    await bmc.driver.bootFirst("hdd");
    await bmc.driver.bootFirst("pxe");
    const staged = (await stagedBoot()).BootOrder as string[];
    // PXE: the first `UEFI PXEv4` entry in the order (the tmfifo one); hdd: `UEFI Non-Block Boot Device`.
    expect(staged.slice(0, 2)).toEqual(["Boot0003", "Boot0001"]);
    await bmc.reboot();
  });

  it("boots once over HTTP or PXE by override, and a disk through BootNext (no Hdd override here)", async () => {
    await bmc.driver.bootOnce("pxe");
    await bmc.driver.bootOnce("hdd");
    expect(bmc.writes.map((w) => w.body)).toEqual([
      {
        Boot: {
          BootSourceOverrideEnabled: "Once",
          BootSourceOverrideMode: "UEFI",
          BootSourceOverrideTarget: "Pxe",
        },
      },
      {
        Boot: {
          BootSourceOverrideEnabled: "Once",
          BootSourceOverrideMode: "UEFI",
          BootSourceOverrideTarget: "UefiBootNext",
          BootNext: "Boot0001",
        },
      },
    ]);
    await bmc.reboot();
    expect(await stagedBoot()).toMatchObject({ BootSourceOverrideEnabled: "Disabled", BootNext: "" });
  });

  it("refuses a MAC with no boot option and a value that is not a MAC", async () => {
    await expect(bmc.driver.setBootOrderDpuFirst("02:00:00:00:00:99")).rejects.toMatchObject({
      code: "boot_option_not_found",
    });
    await expect(bmc.driver.isBootOrderDpuFirst("not-a-mac")).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(bmc.writes).toEqual([]);
  });
});

describe("BlueField-3: NIC mode and rshim", () => {
  it("changes the mode with Mode.Set; the BMC reports it after the DPU rebooted", async () => {
    await nicModeRoundTrip(bmc, {
      method: "POST",
      path: `${S}/Oem/Nvidia/Actions/Mode.Set`,
      body: { Mode: "NicMode" },
    });
  });

  it("does not send a mode the BMC does not allow", async () => {
    const oem = (await read(`${S}/Oem/Nvidia`)) as JsonObject;
    const actions = oem.Actions as JsonObject;
    await bmc.server.service.merge(`${S}/Oem/Nvidia`, {
      Actions: {
        "#Mode.Set": {
          ...(actions["#Mode.Set"] as JsonObject),
          Parameters: [{ Name: "Mode", AllowableValues: ["DpuMode"] }],
        },
      },
    });
    try {
      const error = await bmc.driver.setNicMode("nic").catch((e: unknown) => e);
      expect(isNotSupported(error)).toBe(true);
      expect(bmc.writes).toEqual([]);
    } finally {
      await bmc.server.service.merge(`${S}/Oem/Nvidia`, { Actions: actions });
    }
  });

  it("refuses a mode value it does not know instead of guessing", async () => {
    await bmc.server.service.merge(`${S}/Oem/Nvidia`, { Mode: "SeparatedHostMode" });
    try {
      await expect(bmc.driver.nicMode()).rejects.toMatchObject({ code: "nic_mode_unknown" });
    } finally {
      await bmc.server.service.merge(`${S}/Oem/Nvidia`, { Mode: "DpuMode" });
    }
  });

  it("enables the BMC rshim once, visible on read", async () => {
    await bmc.driver.enableRshim();
    expect(bmc.writes).toEqual([]);
    await bmc.server.service.merge("/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia", {
      BmcRShim: { BmcRShimEnabled: false },
    });
    await bmc.driver.enableRshim();
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: "/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia",
        body: { BmcRShim: { BmcRShimEnabled: true } },
      },
    ]);
    expect(await read("/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia")).toEqual({
      BmcRShim: { BmcRShimEnabled: true },
    });
  });
});

describe("BlueField-3: BIOS", () => {
  it("stages, shows and clears pending attributes", async () => {
    await bmc.driver.setBios({ EnableSMMU: false });
    expect(await bmc.driver.pendingBios()).toEqual({ EnableSMMU: false });
    await bmc.driver.clearPendingBios();
    expect(await bmc.driver.pendingBios()).toEqual({});
    expect(bmc.writes.at(-1)?.body).toEqual({ Attributes: { EnableSMMU: true } });
  });

  it("stages the UEFI password as attributes and never shows it", async () => {
    expect(await bmc.driver.changeUefiPassword("", "Uefi-Pass-1")).toBeUndefined();
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: `${S}/Bios/Settings`,
        body: { Attributes: { CurrentUefiPassword: "", UefiPassword: "Uefi-Pass-1" } },
      },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({ UefiPassword: REDACTED });
    bmc.clearWrites();
    await bmc.driver.clearPendingBios();
    expect(bmc.writes).toEqual([]);
    await bmc.reboot();
    expect((await bmc.driver.bios()).UefiPassword).toBe(REDACTED);
  });

  it("keeps the BMC's text out of a failed UEFI password change", async () => {
    // A BMC that echoes the request in its error, to prove the driver never passes that text on.
    bmc.intercept("PATCH", "/Bios/Settings", ({ body }) =>
      bluefieldError(
        400,
        { MessageId: "Base.1.8.PropertyValueFormatError", Message: `bad value in ${JSON.stringify(body)}` },
        `rejected ${JSON.stringify(body)}`,
      ),
    );
    const error = (await bmc.driver
      .changeUefiPassword("Uefi-Pass-1", "Uefi-Pass-2")
      .catch((e: unknown) => e)) as Error;
    expect(hasErrorCode(error, "uefi_password_change_failed")).toBe(true);
    expect(
      JSON.stringify({ message: error.message, ...(error as { details?: object }).details }),
    ).not.toMatch(/Uefi-Pass/);
    expect(error.message).toContain("PropertyValueFormatError");
  });

  it("resets to defaults through ResetEfiVars", async () => {
    await bmc.driver.resetBios();
    expect(bmc.writes).toEqual([
      { method: "PATCH", path: `${S}/Bios/Settings`, body: { Attributes: { ResetEfiVars: true } } },
    ]);
    await bmc.driver.clearPendingBios();
  });
});

describe("BlueField-3: what the DPU's BMC cannot do, and errors", () => {
  it("answers not_supported, without writing, for lockdown, serial console, TPM, AC power cycle and lockout policy", async () => {
    const driver = bmc.driver;
    for (const call of [
      () => driver.setLockdown(true),
      () => driver.lockdownStatus(),
      () => driver.setupSerialConsole(),
      () => driver.serialConsoleStatus(),
      () => driver.clearTpm(),
      () => driver.power("ACPowercycle"),
      () => driver.setPasswordPolicy({ lockoutThreshold: 0 }),
      () => driver.powerMetrics(),
    ]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isNotSupported(error), String(error)).toBe(true);
    }
    // The card lists no PCIe devices: an empty inventory, not an unsupported operation.
    expect(await driver.pcieDevices()).toEqual([]);
    expect(bmc.writes).toEqual([]);
    expect(await driver.passwordPolicy()).toMatchObject({
      lockoutThreshold: 10,
      lockoutDurationSeconds: 600,
    });
  });

  it("reads the SEL and the event log incrementally, and no drives from a null Storage collection", async () => {
    expect((await bmc.driver.systemEventLog()).map((e) => e.id)).toEqual(["1", "2", "3"]);
    expect((await bmc.driver.systemEventLog({ sinceId: "1" })).map((e) => e.id)).toEqual(["2", "3"]);
    expect((await bmc.driver.bmcEventLog({ sinceId: "3" })).map((e) => e.id)).toEqual(["4"]);
    expect((await bmc.driver.bmcEventLog()).every((e) => e.source === "EventLog")).toBe(true);
    expect(await bmc.driver.drives()).toEqual([]);
  });

  it("passes on a 400 from Mode.Set and a 409 from the BIOS settings with the BMC's status", async () => {
    bmc.server.addFault({ method: "POST", path: `${S}/Oem/Nvidia/Actions/Mode.Set`, status: 400, count: 1 });
    await expect(bmc.driver.setNicMode("nic")).rejects.toMatchObject({
      code: "redfish_http_error",
      details: { httpStatus: 400 },
    });
    bmc.server.addFault({ method: "PATCH", path: `${S}/Bios/Settings`, status: 409, count: 1 });
    await expect(bmc.driver.setBios({ EnableSMMU: false })).rejects.toMatchObject({
      code: "redfish_http_error",
      status: "ABORTED",
    });
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("refuses a BIOS key the BMC does not list (400 PropertyUnknown)", async () => {
    await expect(bmc.driver.setBios({ NoSuchKey: true })).rejects.toMatchObject({
      details: { httpStatus: 400, messageIds: ["Base.1.8.PropertyUnknown"] },
    });
  });
});
