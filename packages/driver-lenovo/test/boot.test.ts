import { BootOptionNotFoundError, hasErrorCode, isNotSupported } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LENOVO_MOCKUPS, xccMockup } from "./support/lenovoMockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const NETWORK_ORDER = `${SYSTEM}/Oem/Lenovo/BootSettings/BootOrder.NetworkBootOrder`;
const DPU_PORT0 = "UEFI:   SLOT15 (65/0/0) HTTP IPv4  Mellanox Network Adapter - B8:3F:D2:4A:10:02";
const DPU_PORT1 = "UEFI:   SLOT15 (65/0/1) HTTP IPv4  Mellanox Network Adapter - B8:3F:D2:4A:10:03";
const BROADCOM_HTTP =
  "UEFI:   SLOT27 (4D/0/0) HTTP IPv4  Broadcom 5719 1GbE RJ45 4-port OCP Ethernet Adapter";
const BROADCOM_PXE = "UEFI:   SLOT27 (4D/0/0) PXE IPv4  Broadcom 5719 1GbE RJ45 4-port OCP Ethernet Adapter";

describe("boot on the SR670 V2", () => {
  const xcc = useDriverMockup({ beforeAll, afterAll, beforeEach }, xccMockup(LENOVO_MOCKUPS.sr670v2));

  it("lists the boot groups with the network group's devices in place, MACs read from their names", async () => {
    const { order, options } = await xcc.createDriver().bootOptions();
    expect(order).toEqual(["Boot0002", "Boot0003", BROADCOM_PXE, DPU_PORT0, DPU_PORT1]);
    expect(options.map((o) => [o.reference, o.displayName, o.mac, o.enabled])).toEqual([
      ["Boot0002", "HardDisk", undefined, undefined],
      ["Boot0003", "Network", undefined, undefined],
      [DPU_PORT0, DPU_PORT0, "B8:3F:D2:4A:10:02", true],
      [DPU_PORT1, DPU_PORT1, "B8:3F:D2:4A:10:03", true],
      [BROADCOM_HTTP, BROADCOM_HTTP, undefined, false],
      [BROADCOM_PXE, BROADCOM_PXE, undefined, true],
    ]);
  });

  it("boots once from PXE or disk through a system override without a mode; UEFI HTTP has no override", async () => {
    const driver = xcc.createDriver();
    await driver.bootOnce("pxe");
    await driver.bootOnce("hdd");
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [SYSTEM, { Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "Pxe" } }],
      [SYSTEM, { Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "Hdd" } }],
    ]);
    const error = await driver.bootOnce("uefiHttp").catch((e: unknown) => e);
    expect(isNotSupported(error)).toBe(true);
    expect(String(error)).toMatch(/override targets None, Pxe, Cd, Usb, Hdd, BiosSetup, Diags, UefiTarget/);
  });

  it("makes a group first by staging the group order in Systems/1/Pending, with its ETag", async () => {
    const driver = xcc.createDriver();
    await driver.bootFirst("pxe");
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [`${SYSTEM}/Pending`, { Boot: { BootOrder: ["Boot0003", "Boot0002"] } }],
    ]);
    expect(xcc.writes[0]?.ifMatch).toBeDefined();
    expect((await driver.bootOptions()).order[0]).toBe("Boot0003");
    // Already first: nothing is written.
    xcc.clearWrites();
    await driver.bootFirst("pxe");
    expect(xcc.writes).toEqual([]);
    await driver.bootFirst("hdd");
    expect(xcc.writes.map((r) => r.body)).toEqual([{ Boot: { BootOrder: ["Boot0002", "Boot0003"] } }]);
  });

  it("boot first UEFI HTTP puts the first HTTP IPv4 device, then the network group, first", async () => {
    await xcc.createDriver().bootFirst("uefiHttp");
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [NETWORK_ORDER, { BootOrderNext: [DPU_PORT0, BROADCOM_PXE, DPU_PORT1] }],
      [`${SYSTEM}/Pending`, { Boot: { BootOrder: ["Boot0003", "Boot0002"] } }],
    ]);
  });

  it("puts the DPU port first by MAC and confirms it, before and after the reboot applies it", async () => {
    const driver = xcc.createDriver();
    expect(await driver.isBootOrderDpuFirst("b8-3f-d2-4a-10-03")).toBe(false);
    expect(await driver.setBootOrderDpuFirst("b8-3f-d2-4a-10-03")).toBeUndefined();
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [NETWORK_ORDER, { BootOrderNext: [DPU_PORT1, BROADCOM_PXE, DPU_PORT0] }],
      [`${SYSTEM}/Pending`, { Boot: { BootOrder: ["Boot0003", "Boot0002"] } }],
    ]);
    expect(await driver.isBootOrderDpuFirst("B8:3F:D2:4A:10:03")).toBe(true);
    expect(await driver.isBootOrderDpuFirst("B8:3F:D2:4A:10:02")).toBe(false);
    await driver.power("ForceRestart");
    expect((await xcc.service.read(SYSTEM))?.Boot).toMatchObject({ BootOrder: ["Boot0003", "Boot0002"] });
    expect((await xcc.service.read(NETWORK_ORDER))?.BootOrderCurrent).toEqual([
      DPU_PORT1,
      BROADCOM_PXE,
      DPU_PORT0,
    ]);
    expect(await driver.isBootOrderDpuFirst("B8:3F:D2:4A:10:03")).toBe(true);
    xcc.clearWrites();
    await driver.setBootOrderDpuFirst("B8:3F:D2:4A:10:03");
    expect(xcc.writes).toEqual([]);
  });

  it("is not DPU-first while another group boots before the network group", async () => {
    const driver = xcc.createDriver();
    await driver.setBootOrderDpuFirst("B8:3F:D2:4A:10:02");
    await driver.bootFirst("hdd");
    expect(await driver.isBootOrderDpuFirst("B8:3F:D2:4A:10:02")).toBe(false);
  });

  it("refuses a MAC with no HTTP IPv4 entry, listing the entries there are", async () => {
    const driver = xcc.createDriver();
    const error = await driver.setBootOrderDpuFirst("02:00:00:00:00:99").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BootOptionNotFoundError);
    expect(hasErrorCode(error, "boot_option_not_found")).toBe(true);
    expect((error as BootOptionNotFoundError).details.available).toContain(DPU_PORT0);
    expect(xcc.writes).toEqual([]);
    expect(
      hasErrorCode(
        await driver.setBootOrderDpuFirst("not-a-mac").catch((e: unknown) => e),
        "invalid_argument",
      ),
    ).toBe(true);
  });

  it("falls back to standard boot options on firmware without the OEM boot settings", async () => {
    const system = (await xcc.service.read(SYSTEM)) ?? {};
    xcc.service.write(SYSTEM, { ...system, Oem: { Lenovo: { FrontPanelUSB: { FPMode: "Shared" } } } });
    xcc.service.write(`${SYSTEM}/BootOptions/Boot0009`, {
      "@odata.id": `${SYSTEM}/BootOptions/Boot0009`,
      Id: "Boot0009",
      BootOptionReference: "Boot0009",
      DisplayName: "UEFI: HTTP IPv4 Mellanox Network Adapter",
      UefiDevicePath: "PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/MAC(B83FD24A1002,0x1)/IPv4(0.0.0.0)/Uri()",
    });
    const collection = (await xcc.service.read(`${SYSTEM}/BootOptions`)) ?? {};
    xcc.service.write(`${SYSTEM}/BootOptions`, {
      ...collection,
      Members: [
        { "@odata.id": `${SYSTEM}/BootOptions/Boot0002` },
        { "@odata.id": `${SYSTEM}/BootOptions/Boot0003` },
        { "@odata.id": `${SYSTEM}/BootOptions/Boot0009` },
      ],
    });
    const driver = xcc.createDriver();
    await driver.setBootOrderDpuFirst("B8:3F:D2:4A:10:02");
    expect(xcc.writes.map((r) => [r.path, r.body])).toEqual([
      [`${SYSTEM}/Pending`, { Boot: { BootOrder: ["Boot0009", "Boot0002", "Boot0003"] } }],
    ]);
  });
});
