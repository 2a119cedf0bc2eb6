import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { propertyUnknown } from "../src/testing/index.js";
import { supermicroMockup } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const FIXED = `${SYSTEM}/Oem/Supermicro/FixedBootOrder`;
const DISABLED_7 = Array.from({ length: 7 }, () => "Disabled");

describe("boot on SYS-821GE-TNHR (standard BootOrder + fixed boot order)", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", { resetPaths: [SYSTEM, FIXED, `${SYSTEM}/BootOptions/Boot0012`] }),
  );

  it("lists boot options with the MAC from either spelling of Supermicro's names", async () => {
    const { order, options } = await bmc.driver.bootOptions();
    expect(order).toEqual(["Boot0013", "Boot0011", "Boot0012", "Boot0010"]);
    expect(options.map((o) => [o.reference, o.mac])).toEqual([
      ["Boot0010", undefined],
      ["Boot0011", "B8:3F:D2:5A:10:01"],
      ["Boot0012", "B8:3F:D2:5A:10:01"],
      ["Boot0013", "3C:EC:EF:1A:2B:30"],
    ]);
  });

  it("boots once with the override target, Once, and the UEFI mode the BMC advertises", async () => {
    await bmc.driver.bootOnce("pxe");
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: {
          Boot: {
            BootSourceOverrideEnabled: "Once",
            BootSourceOverrideTarget: "Pxe",
            BootSourceOverrideMode: "UEFI",
          },
        },
      },
    ]);
    await bmc.driver.power("ForceRestart");
    expect((await bmc.server.service.read(SYSTEM))?.Boot).toMatchObject({
      BootSourceOverrideEnabled: "Disabled",
    });
  });

  it("boots hard disk first: Hard Disk, then Network, every other category disabled", async () => {
    await bmc.driver.bootFirst("hdd");
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: FIXED,
        body: {
          FixedBootOrder: [
            "UEFI Hard Disk",
            "UEFI Network:(B220/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X550 - 3CECEF1A2B30",
            ...DISABLED_7,
          ],
        },
      },
    ]);
  });

  it("boots UEFI HTTP first: Network first with the NVIDIA HTTP device at the front of UEFINetwork", async () => {
    await bmc.driver.bootFirst("uefiHttp");
    const http = "(B26/D0/F0) UEFI HTTP IPv4 Nvidia Network Adapter - B8:3F:D2:5A:10:01 - B83FD25A1001";
    expect(bmc.writes[0]?.body).toEqual({
      FixedBootOrder: [
        "UEFI Network:(B220/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X550 - 3CECEF1A2B30",
        "UEFI Hard Disk",
        ...DISABLED_7,
      ],
      UEFINetwork: [
        http,
        "(B220/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X550 - 3CECEF1A2B30",
        "(B26/D0/F0) UEFI PXE IPv4 Nvidia Network Adapter - B8:3F:D2:5A:10:01 - B83FD25A1001",
      ],
    });
    // The BMC shows the network category by its first device.
    expect((await bmc.server.service.read(FIXED))?.FixedBootOrder).toEqual([
      `UEFI Network:${http}`,
      "UEFI Hard Disk",
      ...DISABLED_7,
    ]);
  });

  it("falls back to a continuous override when the BMC has no fixed boot order", async () => {
    bmc.server.service.remove(FIXED);
    await bmc.driver.bootFirst("pxe");
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: {
          Boot: {
            BootSourceOverrideEnabled: "Continuous",
            BootSourceOverrideTarget: "Pxe",
            BootSourceOverrideMode: "UEFI",
          },
        },
      },
    ]);
  });

  it("puts the DPU's HTTP option first in BootOrder and confirms it", async () => {
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:5A:10:01")).toBe(false);
    expect(await bmc.driver.setBootOrderDpuFirst("b8:3f:d2:5a:10:01")).toBeUndefined();
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: { Boot: { BootOrder: ["Boot0012", "Boot0013", "Boot0011", "Boot0010"] } },
      },
    ]);
    expect(await bmc.driver.isBootOrderDpuFirst("B83FD25A1001")).toBe(true);
    // The PXE option of the same port first is not "DPU first": HTTP is what machine setup enables.
    await bmc.server.service.merge(SYSTEM, {
      Boot: { BootOrder: ["Boot0011", "Boot0012", "Boot0013", "Boot0010"] },
    });
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:5A:10:01")).toBe(false);
  });

  it("re-enables the DPU's boot option when the fixed boot order disabled it", async () => {
    await bmc.server.service.merge(`${SYSTEM}/BootOptions/Boot0012`, { BootOptionEnabled: false });
    await bmc.driver.setBootOrderDpuFirst("B8:3F:D2:5A:10:01");
    expect(bmc.writes.map((w) => [w.path, w.body])).toEqual([
      [`${SYSTEM}/BootOptions/Boot0012`, { BootOptionEnabled: true }],
      [SYSTEM, { Boot: { BootOrder: ["Boot0012", "Boot0013", "Boot0011", "Boot0010"] } }],
    ]);
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:5A:10:01")).toBe(true);
  });

  it("uses the fixed boot order when the BMC refuses BootOrder as an unknown property", async () => {
    // Firmware that does not take BootOrder writes.
    bmc.intercept("PATCH", /\/Systems\/1$/, (write) =>
      write.body.Boot ? propertyUnknown("BootOrder") : undefined,
    );
    await bmc.driver.setBootOrderDpuFirst("B8:3F:D2:5A:10:01");
    expect(bmc.writes.map((w) => w.path)).toEqual([SYSTEM, FIXED]);
    expect(bmc.writes[1]?.body.UEFINetwork).toEqual([
      "(B26/D0/F0) UEFI HTTP IPv4 Nvidia Network Adapter - B8:3F:D2:5A:10:01 - B83FD25A1001",
      "(B220/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X550 - 3CECEF1A2B30",
      "(B26/D0/F0) UEFI PXE IPv4 Nvidia Network Adapter - B8:3F:D2:5A:10:01 - B83FD25A1001",
    ]);
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:5A:10:01")).toBe(true);
  });

  it("refuses a MAC without a boot option, and a malformed MAC, without writing", async () => {
    await expect(bmc.driver.setBootOrderDpuFirst("02:00:00:00:00:09")).rejects.toMatchObject({
      code: "boot_option_not_found",
      status: "FAILED_PRECONDITION",
    });
    await expect(bmc.driver.setBootOrderDpuFirst("not-a-mac")).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(bmc.writes).toEqual([]);
  });
});

describe("boot on SYS-121H-TNR (no BootOrder, no override mode: the fixed boot order rules)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-121h-tnr"));

  it("boots once without BootSourceOverrideMode, which this firmware does not advertise", async () => {
    await bmc.driver.bootOnce("uefiHttp");
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: SYSTEM,
        body: { Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "UefiHttp" } },
      },
    ]);
  });

  it("boots PXE first with the Mellanox adapter's HTTP device at the front", async () => {
    await bmc.driver.bootFirst("pxe");
    expect(bmc.writes[0]?.body.UEFINetwork).toEqual([
      "(B1/D0/F0) UEFI HTTP IPv4 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
      "(B3/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X710 - 3CECEF2C4D50",
      "(B1/D0/F0) UEFI PXE IPv4 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
      "(B1/D0/F0) UEFI PXE IPv6 Mellanox Network Adapter - B8:3F:D2:6B:20:01 - B83FD26B2001",
    ]);
  });

  it("answers DPU-first from the fixed boot order: category first and device first", async () => {
    await bmc.driver.bootFirst("hdd");
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:6B:20:01")).toBe(false);
    await bmc.driver.setBootOrderDpuFirst("B8:3F:D2:6B:20:01");
    expect(bmc.writes.at(-1)?.path).toBe(FIXED);
    expect(await bmc.driver.isBootOrderDpuFirst("B8:3F:D2:6B:20:01")).toBe(true);
    expect(await bmc.driver.isBootOrderDpuFirst("3C:EC:EF:2C:4D:50")).toBe(false);
  });

  it("cannot boot UEFI HTTP first when the BIOS lists no HTTP device yet", async () => {
    const fixed = await bmc.server.service.read(FIXED);
    await bmc.server.service.merge(FIXED, {
      UEFINetwork: ["(B3/D0/F0) UEFI PXE IPv4 Intel(R) Ethernet Controller X710 - 3CECEF2C4D50"],
    });
    try {
      await expect(bmc.driver.bootFirst("uefiHttp")).rejects.toMatchObject({
        code: "boot_option_not_found",
        message: expect.stringContaining("IPv4HTTPSupport"),
      });
    } finally {
      if (fixed) bmc.server.service.write(FIXED, fixed);
    }
  });
});
