import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supermicroMockup } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const MANAGER = "/redfish/v1/Managers/1";
const SYS_LOCKDOWN = `${MANAGER}/Oem/Supermicro/SysLockdown`;
const KCS = `${MANAGER}/Oem/Supermicro/KCSInterface`;
const HOST_INTERFACE = `${MANAGER}/HostInterfaces/1`;
const CHASSIS = "/redfish/v1/Chassis";
const PG535 = `${CHASSIS}/ProcessorModule_0`;

describe("lockdown (SYS-821GE-TNHR)", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", {
      resetPaths: [SYSTEM, MANAGER, SYS_LOCKDOWN, KCS, HOST_INTERFACE, CHASSIS, PG535],
    }),
  );

  const writes = () => bmc.writes.map((w) => [w.path, w.body]);

  it("starts disabled: System Lockdown off, KCS Administrator, host interface on", async () => {
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "disabled",
      message: "SysLockdownEnabled=false, KCS privilege=Administrator, host interface=on",
    });
  });

  it("enables in order: host interface off, KCS to Callback, System Lockdown on last", async () => {
    await bmc.driver.setLockdown(true);
    expect(writes()).toEqual([
      [HOST_INTERFACE, { InterfaceEnabled: false }],
      [KCS, { Privilege: "Callback" }],
      [SYS_LOCKDOWN, { SysLockdownEnabled: true }],
    ]);
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "SysLockdownEnabled=true, KCS privilege=Callback, host interface=off",
    });
    bmc.clearWrites();
    await bmc.driver.setLockdown(true);
    expect(writes()).toEqual([]);
  });

  it("disables in reverse: System Lockdown off first, then KCS, then the host interface", async () => {
    await bmc.driver.setLockdown(true);
    bmc.clearWrites();
    await bmc.driver.setLockdown(false);
    expect(writes()).toEqual([
      [SYS_LOCKDOWN, { SysLockdownEnabled: false }],
      [KCS, { Privilege: "Administrator" }],
      [HOST_INTERFACE, { InterfaceEnabled: true }],
    ]);
    expect((await bmc.driver.lockdownStatus()).state).toBe("disabled");
  });

  it("reports partial when the settings disagree, and unlocks before fixing them when enabling", async () => {
    await bmc.server.service.merge(SYS_LOCKDOWN, { SysLockdownEnabled: true });
    await bmc.server.service.merge(KCS, { Privilege: "Callback" });
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "partial",
      message: "SysLockdownEnabled=true, KCS privilege=Callback, host interface=on",
    });
    await bmc.driver.setLockdown(true);
    expect(writes()).toEqual([
      [SYS_LOCKDOWN, { SysLockdownEnabled: false }],
      [HOST_INTERFACE, { InterfaceEnabled: false }],
      [SYS_LOCKDOWN, { SysLockdownEnabled: true }],
    ]);
    expect((await bmc.driver.lockdownStatus()).state).toBe("enabled");
  });

  it("counts a KCS privilege that is neither Callback nor Administrator as partial", async () => {
    await bmc.server.service.merge(KCS, { Privilege: "Operator" });
    expect((await bmc.driver.lockdownStatus()).state).toBe("partial");
  });

  it("keeps the host interface on for ARS-121L-DNR, which cannot network-boot without it", async () => {
    await bmc.server.service.merge(SYSTEM, { Model: "ARS-121L-DNR" });
    await bmc.driver.setLockdown(true);
    expect(writes()).toEqual([
      [KCS, { Privilege: "Callback" }],
      [SYS_LOCKDOWN, { SysLockdownEnabled: true }],
    ]);
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "SysLockdownEnabled=true, KCS privilege=Callback",
    });
  });

  async function asMgxC2(firmware: string): Promise<void> {
    const manager = (await bmc.server.service.read(MANAGER)) ?? {};
    bmc.server.service.write(MANAGER, {
      ...manager,
      FirmwareVersion: firmware,
      Oem: { Supermicro: { SysLockdown: { "@odata.id": SYS_LOCKDOWN } } },
    });
    bmc.server.service.remove(KCS);
    await bmc.server.service.createMember(
      CHASSIS,
      {
        "@odata.type": "#Chassis.v1_14_0.Chassis",
        Name: "Processor Module",
        ChassisType: "Module",
        Manufacturer: "NVIDIA",
        Model: "PG535",
        PartNumber: "692-2G535-0200-000",
      },
      { id: "ProcessorModule_0" },
    );
    await bmc.server.service.merge(SYSTEM, { IPMIHostInterface: { ServiceEnabled: true } });
  }

  it("locks in-band IPMI through the system's IPMIHostInterface on MGX C2 from firmware 01.05.01", async () => {
    await asMgxC2("01.05.01");
    await bmc.driver.setLockdown(true);
    expect(writes()).toEqual([
      [HOST_INTERFACE, { InterfaceEnabled: false }],
      [SYSTEM, { IPMIHostInterface: { ServiceEnabled: false } }],
      [SYS_LOCKDOWN, { SysLockdownEnabled: true }],
    ]);
    expect(await bmc.driver.lockdownStatus()).toEqual({
      state: "enabled",
      message: "SysLockdownEnabled=true, IPMIHostInterface=off, host interface=off",
    });
  });

  it("leaves in-band IPMI alone on MGX C2 firmware older than 01.05.01", async () => {
    await asMgxC2("01.04.09");
    await bmc.driver.setLockdown(true);
    expect(writes().map(([path]) => path)).toEqual([HOST_INTERFACE, SYS_LOCKDOWN]);
    expect((await bmc.driver.lockdownStatus()).message).toBe("SysLockdownEnabled=true, host interface=off");
  });

  it("stops at a refused System Lockdown change: nothing else is unlocked", async () => {
    await bmc.driver.setLockdown(true);
    bmc.clearWrites();
    bmc.server.addFault({ path: SYS_LOCKDOWN, method: "PATCH", status: 409, count: 1 });
    await expect(bmc.driver.setLockdown(false)).rejects.toMatchObject({ httpStatus: 409, status: "ABORTED" });
    expect(writes()).toEqual([]);
    expect((await bmc.driver.lockdownStatus()).state).toBe("enabled");
  });

  it("is not supported on a BMC without SysLockdown", async () => {
    bmc.server.service.remove(SYS_LOCKDOWN);
    await expect(bmc.driver.lockdownStatus()).rejects.toMatchObject({ code: "not_supported" });
    await expect(bmc.driver.setLockdown(true)).rejects.toMatchObject({ code: "not_supported" });
    expect(writes()).toEqual([]);
  });
});
