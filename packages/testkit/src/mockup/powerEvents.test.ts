import { beforeEach, describe, expect, it } from "vitest";
import { EXAMPLE_MOCKUP } from "../index.js";
import { MockupService } from "./mockupService.js";
import type { MockupPowerChange } from "./powerEvents.js";
import { noContent } from "./responses.js";

const SYSTEM = "/redfish/v1/Systems/1";
const RESET = `${SYSTEM}/Actions/ComputerSystem.Reset`;

let service: MockupService;
let changes: MockupPowerChange[];

beforeEach(async () => {
  service = await MockupService.open(EXAMPLE_MOCKUP);
  changes = [];
  service.onPowerChange((change) => changes.push(change));
});

const reset = (resetType: string) =>
  service.handle({ method: "POST", path: RESET, body: { ResetType: resetType } });

describe("power listeners", () => {
  it("hear every standard reset with the power states and whether it booted", async () => {
    await reset("ForceOff");
    await reset("On");
    await reset("ForceRestart");
    await reset("Nmi");
    expect(changes.map((c) => [c.resetType, c.powerStateBefore, c.powerStateAfter, c.booted])).toEqual([
      ["ForceOff", "On", "Off", false],
      ["On", "Off", "On", true],
      ["ForceRestart", "On", "On", true],
      ["Nmi", "On", "On", false],
    ]);
    expect(changes[0]).toMatchObject({ systemPath: SYSTEM, action: "#ComputerSystem.Reset" });
  });

  it("tell the one-time override the boot used, although the reset reverts it", async () => {
    await service.merge(SYSTEM, {
      Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "UefiHttp" },
    });
    await reset("ForceRestart");
    await reset("ForceRestart");
    expect(changes.map((c) => c.bootOverride)).toEqual([{ target: "UefiHttp", enabled: "Once" }, undefined]);
    expect((await service.read(SYSTEM))?.Boot).toMatchObject({ BootSourceOverrideEnabled: "Disabled" });
  });

  it("find an override staged in the system's settings object (BlueField BMCs)", async () => {
    await service.merge(SYSTEM, {
      "@Redfish.Settings": { SettingsObject: { "@odata.id": `${SYSTEM}/Settings` } },
    });
    service.write(`${SYSTEM}/Settings`, {
      Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "UefiHttp" },
    });
    await reset("On");
    expect(changes[0]?.bootOverride).toEqual({ target: "UefiHttp", enabled: "Once" });
  });

  it("hear a vendor reset a behavior carries out, and stop when removed", async () => {
    await service.merge(SYSTEM, {
      Actions: { Oem: { "#AcmeSystem.AcCycle": { target: `${SYSTEM}/Actions/Oem/AcmeSystem.AcCycle` } } },
    });
    service.use({
      name: "acme-ac-cycle",
      actions: {
        "#AcmeSystem.AcCycle": async ({ service: bmc }) => {
          await bmc.merge(SYSTEM, { PowerState: "On" });
          return noContent();
        },
      },
    });
    await reset("ForceOff");
    await service.handle({ method: "POST", path: `${SYSTEM}/Actions/Oem/AcmeSystem.AcCycle`, body: {} });
    expect(changes[1]).toMatchObject({
      action: "#AcmeSystem.AcCycle",
      powerStateBefore: "Off",
      booted: true,
    });

    const quiet = await MockupService.open(EXAMPLE_MOCKUP);
    const heard: MockupPowerChange[] = [];
    const stop = quiet.onPowerChange((change) => heard.push(change));
    stop();
    await quiet.handle({ method: "POST", path: RESET, body: { ResetType: "ForceOff" } });
    expect(heard).toEqual([]);
  });

  it("keep answering when a listener throws", async () => {
    service.onPowerChange(() => {
      throw new Error("listener bug");
    });
    expect((await reset("ForceOff")).status).toBe(204);
    expect(changes).toHaveLength(1);
  });
});
