import { type MockupBehavior, useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bootEntryKind, reorderBootEntries } from "../src/boot/index.js";
import { at, GEN10_NETWORK_ENTRIES, hpeMockup, MOCKUPS } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const BOOT = `${SYSTEM}/Bios/oem/hpe/boot`;
const BOOT_SETTINGS = `${SYSTEM}/Bios/oem/hpe/boot/settings/`;
const DPU_MAC = "02:A5:10:30:00:01";
const INITIAL_ORDER = ["HD.Slot.3.1", "NVMe.DriveBay.1.1", ...GEN10_NETWORK_ENTRIES, "Generic.USB.1.1"];
const INITIAL_BOOT_ORDER = [
  "Boot0017",
  "Boot0016",
  "Boot0014",
  "Boot0015",
  "Boot0011",
  "Boot0010",
  "Boot0013",
  "Boot0012",
  "Boot0018",
];

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, hpeMockup(MOCKUPS.gen10));

/** Adds a behavior for one test; the returned function removes it. */
function use(behavior: MockupBehavior): () => void {
  return bmc.server.service.use(behavior);
}

describe("boot first / boot once", () => {
  it.each([
    [
      "pxe",
      [
        "OCP.Slot.10.1.IPv4",
        "NIC.Slot.1.1.IPv4",
        "NIC.Slot.1.1.IPv6",
        "HD.Slot.3.1",
        "NVMe.DriveBay.1.1",
        "OCP.Slot.10.1.Httpv4",
        "NIC.Slot.1.1.Httpv4",
        "NIC.Slot.1.1.Httpv6",
        "Generic.USB.1.1",
      ],
    ],
    [
      "uefiHttp",
      [
        "OCP.Slot.10.1.Httpv4",
        "NIC.Slot.1.1.Httpv4",
        "NIC.Slot.1.1.Httpv6",
        "HD.Slot.3.1",
        "NVMe.DriveBay.1.1",
        "OCP.Slot.10.1.IPv4",
        "NIC.Slot.1.1.IPv4",
        "NIC.Slot.1.1.IPv6",
        "Generic.USB.1.1",
      ],
    ],
    ["hdd", INITIAL_ORDER],
  ] as const)(
    "%s stages iLO's persistent order with those entries first, in their order",
    async (target, order) => {
      await bmc.driver.bootFirst(target);
      await bmc.driver.bootOnce(target);
      const write = { method: "PATCH", path: BOOT_SETTINGS, body: { PersistentBootConfigOrder: order } };
      // Boot once is boot first on iLO: the same write.
      expect(bmc.takeWrites()).toEqual([write, write]);
    },
  );

  it("shows in Boot.BootOrder once the host has booted", async () => {
    await bmc.driver.bootFirst("pxe");
    expect((await bmc.driver.bootOptions()).order).toEqual(INITIAL_BOOT_ORDER);
    await bmc.reboot();
    const { order, options } = await bmc.driver.bootOptions();
    expect(order.slice(0, 3)).toEqual(["Boot0014", "Boot0011", "Boot0013"]);
    expect(options.find((option) => option.reference === order[0])?.displayName).toMatch(/\(PXE IPv4\)$/);
    expect(at(await bmc.read(BOOT), "PersistentBootConfigOrder")).toEqual(
      expect.arrayContaining(INITIAL_ORDER),
    );
  });

  it("refuses a target no entry boots, writing nothing", async () => {
    const boot = await bmc.read(BOOT);
    bmc.server.service.write(BOOT, {
      ...boot,
      PersistentBootConfigOrder: ["HD.Slot.3.1", "Generic.USB.1.1"],
    });
    await expect(bmc.driver.bootFirst("uefiHttp")).rejects.toMatchObject({
      code: "boot_option_not_found",
      message: "no boot option for uefiHttp",
    });
    expect(bmc.takeWrites()).toEqual([]);
  });

  it("says not supported when iLO has no OEM boot order resource", async () => {
    bmc.server.service.remove(BOOT);
    await expect(bmc.driver.bootFirst("hdd")).rejects.toMatchObject({ code: "not_supported" });
  });
});

describe("DPU-first boot order", () => {
  it("moves the DPU port's HTTP IPv4 option to the front of Boot.BootOrder, once", async () => {
    expect(await bmc.driver.isBootOrderDpuFirst(DPU_MAC)).toBe(false);
    expect(await bmc.driver.setBootOrderDpuFirst(DPU_MAC.toLowerCase())).toBeUndefined();
    expect(bmc.takeWrites()).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: { Boot: { BootOrder: ["Boot0010", ...INITIAL_BOOT_ORDER.filter((r) => r !== "Boot0010")] } },
      },
    ]);
    expect(await bmc.driver.isBootOrderDpuFirst("02a510300001")).toBe(true);
    await bmc.driver.setBootOrderDpuFirst(DPU_MAC);
    expect(bmc.takeWrites()).toEqual([]);
  });

  it("is exact: the same port's PXE option first, or another port's HTTP option, is not DPU-first", async () => {
    await bmc.server.service.merge(SYSTEM, { Boot: { BootOrder: ["Boot0011", "Boot0010"] } });
    expect(await bmc.driver.isBootOrderDpuFirst(DPU_MAC)).toBe(false);
    await bmc.server.service.merge(SYSTEM, { Boot: { BootOrder: ["Boot0015", "Boot0010"] } });
    expect(await bmc.driver.isBootOrderDpuFirst(DPU_MAC)).toBe(false);
    expect(await bmc.driver.isBootOrderDpuFirst("02:A5:10:20:00:01")).toBe(true);
  });

  it("ignores iLO's 400 UnableToModifyDuringSystemPOST (the status poll retries) but not other errors", async () => {
    let messageId = "iLO.2.14.UnableToModifyDuringSystemPOST";
    const remove = use({
      name: "in-post",
      patch: {
        [SYSTEM]: () => ({
          status: 400,
          headers: { "content-type": "application/json" },
          body: {
            error: { code: "iLO.0.10.ExtendedInfo", "@Message.ExtendedInfo": [{ MessageId: messageId }] },
          },
        }),
      },
    });
    try {
      await expect(bmc.driver.setBootOrderDpuFirst(DPU_MAC)).resolves.toBeUndefined();
      expect(await bmc.driver.isBootOrderDpuFirst(DPU_MAC)).toBe(false);
      messageId = "iLO.2.14.PropertyValueBadParam";
      await expect(bmc.driver.setBootOrderDpuFirst(DPU_MAC)).rejects.toMatchObject({
        code: "redfish_http_error",
        httpStatus: 400,
      });
    } finally {
      remove();
    }
  });

  it("refuses a MAC without an HTTP IPv4 option and a malformed MAC", async () => {
    await expect(bmc.driver.setBootOrderDpuFirst("02:00:00:00:00:99")).rejects.toMatchObject({
      code: "boot_option_not_found",
    });
    await expect(bmc.driver.isBootOrderDpuFirst("nope")).rejects.toMatchObject({ code: "invalid_argument" });
    expect(bmc.takeWrites()).toEqual([]);
  });
});

describe("boot entries", () => {
  const source = (BootString: string, UEFIDevicePath: string) => ({ BootString, UEFIDevicePath });

  it.each([
    [
      "Slot 5 Port 1 : Mellanox Network Adapter - B8:3F:D2:D7:F7:4A (HTTP(S) IPv4)",
      "PciRoot(0x7)/Pci(0x1,0x1)/Pci(0x0,0x0)/MAC(B83FD2D7F74A,0x1)/IPv4(0.0.0.0)/Uri()",
      "http",
    ],
    [
      "Slot 5 Port 1 : Mellanox Network Adapter - B8:3F:D2:D7:F7:4A (PXE IPv6)",
      "PciRoot(0x7)/Pci(0x1,0x1)/Pci(0x0,0x0)/MAC(B83FD2D7F74A,0x1)/IPv6(0000:0000:0000:0000:0000:0000:0000:0000)",
      "pxe",
    ],
    [
      "Windows Boot Manager - sSATA port1",
      "HD(2,GPT,3F2633A7,0xFA000,0x32000)/\\EFI\\Microsoft\\Boot\\bootmgfw.efi",
      "disk",
    ],
    [
      "NVMe Drive Port 7A Box 2 Bay 5 : NVM Express Controller - S6C1NA0TA04209",
      "PciRoot(0x0)/Pci(0x3,0x2)/Pci(0x0,0x0)/NVMe(0x1,60-33-01-21-9A-38-25-00)",
      "disk",
    ],
    [
      "Slot 2 : HPE Smart Array P408i-p SR Gen10 - 447.1 GiB, RAID1 Logical Drive 1(Target:379, Lun:0)",
      "PciRoot(0x3)/Pci(0x1,0x1)/Pci(0x0,0x0)/Scsi(0x17B,0x0)",
      "disk",
    ],
    ["Generic USB Boot", "UsbClass(0xFFFF,0xFFFF,0xFF,0xFF,0xFF)", "other"],
    ["Embedded UEFI Shell", "Fv(CDBB7B35-6833-4ED6-9AB2-57D2ACDDF6F0)/FvFile(C57AD6B7)", "other"],
  ])("%s → %s", (name, path, kind) => {
    expect(bootEntryKind("any", source(name, path))).toBe(kind);
  });

  it.each([
    ["NIC.FlexLOM.1.1.Httpv4", "http"],
    ["NIC.Slot.2.1.IPv4", "pxe"],
    ["HD.Slot.2.2", "disk"],
    ["Unknown.Unknown.200.1", "other"],
  ])("an entry without a boot source is classified by its name: %s → %s", (entry, kind) => {
    expect(bootEntryKind(entry, undefined)).toBe(kind);
  });

  it("puts a given entry ahead of the moved ones and counts what moved", () => {
    const boot = { PersistentBootConfigOrder: ["HD.Slot.1.1", "NIC.Slot.1.1.IPv4", "NIC.Slot.1.1.Httpv4"] };
    expect(reorderBootEntries(boot, ["pxe"], "NIC.Slot.1.1.Httpv4")).toEqual({
      order: ["NIC.Slot.1.1.Httpv4", "NIC.Slot.1.1.IPv4", "HD.Slot.1.1"],
      matched: 2,
    });
    expect(reorderBootEntries(boot, ["disk"], "Missing.Entry")).toEqual({
      order: boot.PersistentBootConfigOrder,
      matched: 1,
    });
  });
});
