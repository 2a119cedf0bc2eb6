import { silentLogger } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { machineSetupAttributes } from "../src/bios/index.js";
import { hpeDriverDefinition } from "../src/index.js";
import { at, GEN10_NETWORK_ENTRIES, hpeMockup, MOCKUPS, SERIAL_CONSOLE } from "./support/mockups.js";

const DPU_MAC = "02:a5:10:30:00:01";
const SYSTEM = "/redfish/v1/Systems/1";
const BIOS = `${SYSTEM}/Bios`;
const BIOS_SETTINGS = `${SYSTEM}/Bios/settings/`;
const BOOT_SETTINGS = `${SYSTEM}/Bios/oem/hpe/boot/settings/`;
const SETUP_ATTRIBUTES = {
  ...SERIAL_CONSOLE,
  Tpm2Operation: "Clear",
  TpmVisibility: "Visible",
  ProcAmdIoVt: "Enabled",
  Dhcpv4: "Enabled",
  HttpSupport: "Auto",
};
const NETWORK_FIRST = [...GEN10_NETWORK_ENTRIES, "HD.Slot.3.1", "NVMe.DriveBay.1.1", "Generic.USB.1.1"];

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

describe("machineSetup on an iLO 5 ProLiant DL385 Gen10 Plus v2", () => {
  it("stages one BIOS PATCH in iLO's order, then the boot order with the DPU's HTTP IPv4 entry first", async () => {
    expect(await bmc.driver.machineSetup({ bootInterfaceMac: DPU_MAC })).toEqual({ rebootRequired: true });
    const writes = bmc.takeWrites();
    expect(writes).toEqual([
      { method: "PATCH", path: BIOS_SETTINGS, body: { Attributes: SETUP_ATTRIBUTES } },
      {
        method: "PATCH",
        path: BOOT_SETTINGS,
        body: {
          PersistentBootConfigOrder: [
            "NIC.Slot.1.1.Httpv4",
            ...NETWORK_FIRST.filter((e) => e !== "NIC.Slot.1.1.Httpv4"),
          ],
        },
      },
    ]);
    expect(Object.keys(at(writes[0]?.body, "Attributes") as object)).toEqual(Object.keys(SETUP_ATTRIBUTES));
  });

  it("reports the BMC's current values until a reboot applies them, then done", async () => {
    await bmc.driver.machineSetup({ bootInterfaceMac: DPU_MAC });
    const before = await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC });
    expect(before.done).toBe(false);
    expect(before.diffs).toEqual([
      { key: "EmbeddedSerialPort", expected: "Com2Irq3", actual: "Com1Irq4" },
      { key: "EmsConsole", expected: "Virtual", actual: "Disabled" },
      { key: "SerialConsolePort", expected: "Virtual", actual: "Auto" },
      { key: "UefiSerialDebugLevel", expected: "ErrorsOnly", actual: "Disabled" },
      { key: "VirtualSerialPort", expected: "Com1Irq4", actual: "Com2Irq3" },
      { key: "ProcAmdIoVt", expected: "Enabled", actual: "Disabled" },
      {
        key: "BootOrder[0]",
        expected: "Slot 1 Port 1 : NVIDIA BlueField-3 B3220 DPU - 02:A5:10:30:00:01 (HTTP(S) IPv4)",
        actual:
          "Slot 3 : HPE Smart Array P408i-p SR Gen10 - 447.1 GiB, RAID1 Logical Drive 1(Target:0, Lun:0)",
      },
    ]);

    await bmc.reboot();
    expect(await bmc.driver.machineSetupStatus({ bootInterfaceMac: DPU_MAC })).toEqual({
      done: true,
      diffs: [],
    });
    expect(at(await bmc.read(SYSTEM), "Boot", "BootOrder")).toEqual(expect.arrayContaining(["Boot0010"]));
    expect((at(await bmc.read(SYSTEM), "Boot", "BootOrder") as string[])[0]).toBe("Boot0010");
    // The BIOS cleared the TPM while booting and reset the one-shot operation.
    expect(at(await bmc.read(BIOS), "Attributes", "Tpm2Operation")).toBe("NoAction");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("without a boot MAC moves every network entry first and checks that order", async () => {
    await bmc.driver.machineSetup({});
    expect(bmc.takeWrites()[1]).toEqual({
      method: "PATCH",
      path: BOOT_SETTINGS,
      body: { PersistentBootConfigOrder: NETWORK_FIRST },
    });
    const pending = await bmc.driver.machineSetupStatus({});
    expect(pending.diffs.at(-1)).toEqual({
      key: "PersistentBootConfigOrder",
      expected: "network entries first: OCP.Slot.10.1.IPv4, OCP.Slot.10.1.Httpv4, NIC.Slot.1.1.IPv4",
      actual: "HD.Slot.3.1, NVMe.DriveBay.1.1, OCP.Slot.10.1.IPv4",
    });
    await bmc.reboot();
    expect(await bmc.driver.machineSetupStatus({})).toEqual({ done: true, diffs: [] });
  });

  it("applies the operator's profile for this model from the config; an explicit profile wins", async () => {
    const settings = {
      biosProfiles: {
        ProLiant_DL385_Gen10_Plus_v2: {
          performance: { WorkloadProfile: "HighPerformanceCompute", ProcSMT: "Disabled" },
          powerEfficiency: { WorkloadProfile: "GeneralPowerEfficientCompute" },
        },
      },
      biosProfile: "performance",
    };
    const driver = hpeDriverDefinition.create(bmc.client, { logger: silentLogger, settings });
    await driver.machineSetup({});
    expect(at(bmc.takeWrites()[0]?.body, "Attributes")).toEqual({
      ...SETUP_ATTRIBUTES,
      WorkloadProfile: "HighPerformanceCompute",
      ProcSMT: "Disabled",
    });
    expect((await driver.machineSetupStatus({})).diffs).toContainEqual({
      key: "WorkloadProfile",
      expected: "HighPerformanceCompute",
      actual: "GeneralPowerEfficientCompute",
    });
    await bmc.reboot();
    expect(await driver.machineSetupStatus({})).toEqual({ done: true, diffs: [] });

    bmc.takeWrites();
    await driver.machineSetup({ biosProfile: { PowerRegulator: "StaticHighPerf" } });
    expect(at(bmc.takeWrites()[0]?.body, "Attributes")).toEqual({
      ...SETUP_ATTRIBUTES,
      PowerRegulator: "StaticHighPerf",
    });
  });

  it("leaves out vendor attributes this BIOS lacks rather than have iLO reject the whole PATCH", async () => {
    for (const path of [BIOS, BIOS_SETTINGS]) {
      const resource = await bmc.read(path);
      const {
        UefiSerialDebugLevel: _u,
        ProcAmdIoVt: _p,
        ...attributes
      } = at(resource, "Attributes") as Record<string, string>;
      bmc.server.service.write(path, { ...resource, Attributes: attributes });
    }
    await bmc.driver.machineSetup({});
    const sent = at(bmc.takeWrites()[0]?.body, "Attributes") as Record<string, unknown>;
    expect(sent).not.toHaveProperty("UefiSerialDebugLevel");
    expect(sent).not.toHaveProperty("ProcAmdIoVt");
    expect(sent).toHaveProperty("EmbeddedSerialPort", "Com2Irq3");
    await bmc.reboot();
    expect(await bmc.driver.machineSetupStatus({})).toEqual({ done: true, diffs: [] });
  });

  it("refuses a MAC without an HTTP IPv4 boot option, or no MAC at all, before writing anything", async () => {
    await expect(bmc.driver.machineSetup({ bootInterfaceMac: "02:00:00:00:00:99" })).rejects.toMatchObject({
      code: "boot_option_not_found",
      message: "no boot option for HTTP IPv4 boot from 02:00:00:00:00:99",
    });
    await expect(bmc.driver.machineSetup({ bootInterfaceMac: "not-a-mac" })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(bmc.takeWrites()).toEqual([]);
  });

  it("surfaces a 400 from iLO on the BIOS PATCH and stages no boot order", async () => {
    bmc.server.addFault({
      path: "/redfish/v1/Systems/1/Bios/settings",
      method: "PATCH",
      status: 400,
      count: 1,
    });
    await expect(bmc.driver.machineSetup({ bootInterfaceMac: DPU_MAC })).rejects.toMatchObject({
      code: "redfish_http_error",
      httpStatus: 400,
      status: "INVALID_ARGUMENT",
    });
    expect(bmc.takeWrites()).toEqual([]);
    bmc.server.clearFaults();
  });
});

describe("machineSetupAttributes", () => {
  it("enables VT-d on Intel BIOSes and names the virtualization keys when neither exists", () => {
    expect(machineSetupAttributes({ IntelProcVtd: "Disabled", Dhcpv4: "Disabled" }).apply).toEqual({
      IntelProcVtd: "Enabled",
      Dhcpv4: "Enabled",
    });
    const none = machineSetupAttributes({ Dhcpv4: "Enabled" });
    expect(none.skipped).toContain("IntelProcVtd|ProcAmdIoVt");
    expect(none.verify).toEqual({ Dhcpv4: "Enabled" });
  });
});
