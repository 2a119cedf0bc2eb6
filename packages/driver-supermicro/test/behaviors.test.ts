import { type JsonObject, MockupService } from "@racksmith/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { SUPERMICRO_BEHAVIORS } from "../src/testing/index.js";
import { mockupDir } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const FIXED = `${SYSTEM}/Oem/Supermicro/FixedBootOrder`;

// The mockup side effects the package ships for `racksmith driver test`: what a Supermicro BMC accepts.
describe("Supermicro mockup behaviors", () => {
  let x13: MockupService;
  let older: MockupService;

  beforeAll(async () => {
    x13 = await MockupService.open(mockupDir("sys-821ge-tnhr"), { behaviors: SUPERMICRO_BEHAVIORS });
    older = await MockupService.open(mockupDir("sys-121h-tnr"), { behaviors: SUPERMICRO_BEHAVIORS });
  });

  const patch = (service: MockupService, path: string, body: JsonObject) =>
    service.handle({ method: "PATCH", path, body });
  const messageIdOf = (response: { body?: unknown }) =>
    ((response.body as JsonObject).error as { "@Message.ExtendedInfo": Array<{ MessageId: string }> })[
      "@Message.ExtendedInfo"
    ][0]?.MessageId;

  it("stages a Bios PATCH in Bios/SD and refuses attributes the BIOS lacks", async () => {
    expect((await patch(x13, `${SYSTEM}/Bios`, { Attributes: { NUMA_003B: "Disabled" } })).status).toBe(204);
    expect(await x13.read(`${SYSTEM}/Bios/SD`)).toMatchObject({ Attributes: { NUMA_003B: "Disabled" } });
    expect((await x13.read(`${SYSTEM}/Bios`))?.Attributes).toMatchObject({ NUMA_003B: "Enabled" });
    const refused = await patch(x13, `${SYSTEM}/Bios`, { Attributes: { NUMA: "Disabled" } });
    expect(refused.status).toBe(400);
    expect(messageIdOf(refused)).toBe("Base.1.10.3.PropertyUnknown");
  });

  it.each([
    ["a shorter category order", { FixedBootOrder: ["UEFI Hard Disk"] }, "FixedBootOrder"],
    [
      "an unknown category",
      { FixedBootOrder: ["UEFI Floppy Drive", ...Array(8).fill("Disabled")] },
      "UEFI Floppy Drive",
    ],
    [
      "a category twice",
      { FixedBootOrder: ["UEFI Hard Disk", "UEFI Hard Disk", ...Array(7).fill("Disabled")] },
      "UEFI Hard Disk",
    ],
    ["devices added to UEFINetwork", { UEFINetwork: ["(B9/D0/F0) UEFI PXE IPv4 Other"] }, "UEFINetwork"],
  ])("refuses a fixed boot order with %s", async (_what, body, argument) => {
    const refused = await patch(x13, FIXED, body as JsonObject);
    expect(refused.status).toBe(400);
    expect(messageIdOf(refused)).toBe("Base.1.10.3.PropertyValueNotInList");
    expect(JSON.stringify(refused.body)).toContain(argument);
  });

  it("refuses BootOrder where the firmware has none, and a BootOrder that is not a reordering", async () => {
    const unknown = await patch(older, SYSTEM, { Boot: { BootOrder: ["Boot0004"] } });
    expect([unknown.status, messageIdOf(unknown)]).toEqual([400, "Base.1.10.3.PropertyUnknown"]);
    const dropped = await patch(x13, SYSTEM, { Boot: { BootOrder: ["Boot0012"] } });
    expect([dropped.status, messageIdOf(dropped)]).toEqual([400, "Base.1.10.3.PropertyValueNotInList"]);
  });

  it("accepts only IPMI privilege levels for KCS", async () => {
    const path = "/redfish/v1/Managers/1/Oem/Supermicro/KCSInterface";
    expect((await patch(x13, path, { Privilege: "Root" })).status).toBe(400);
    expect((await patch(x13, path, { Privilege: "Callback" })).status).toBe(204);
    expect(await x13.read(path)).toMatchObject({ Privilege: "Callback" });
  });

  it("AC-cycles only with ResetType ACCycle", async () => {
    const refused = await older.handle({
      method: "POST",
      path: `${SYSTEM}/Actions/Oem/OemSystemExtensions.Reset`,
      body: { ResetType: "ForceOff" },
    });
    expect([refused.status, messageIdOf(refused)]).toEqual([
      400,
      "Base.1.10.3.ActionParameterValueNotInList",
    ]);
  });
});
