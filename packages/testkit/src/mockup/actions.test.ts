import { describe, expect, it } from "vitest";
import { TINY_FULL } from "./__fixtures__/paths.js";
import { MockupService } from "./mockupService.js";

describe("advertised OEM actions", () => {
  it("accepts actions listed under Oem.<vendor>.Actions and names with a schema prefix before #", async () => {
    const service = await MockupService.open(TINY_FULL);
    const system = (await service.read("/redfish/v1/Systems/1")) ?? {};
    service.write("/redfish/v1/Systems/1", {
      ...system,
      Oem: {
        Hpe: {
          Actions: {
            "#HpeComputerSystemExt.SystemReset": {
              target: "/redfish/v1/Systems/1/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset",
            },
          },
        },
      },
      Actions: {
        ...(system.Actions as object),
        Oem: {
          "DellManager.v1_0_0#DellManager.ClearPending": {
            target: "/redfish/v1/Systems/1/Actions/Oem/DellManager.ClearPending",
          },
        },
      },
    });
    const post = (path: string) => service.handle({ method: "POST", path, body: { ResetType: "AuxCycle" } });
    expect(
      (await post("/redfish/v1/Systems/1/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset")).status,
    ).toBe(204);
    expect((await post("/redfish/v1/Systems/1/Actions/Oem/DellManager.ClearPending")).status).toBe(204);
    expect((await post("/redfish/v1/Systems/1/Actions/Oem/Nope.Nope")).status).toBe(404);
    expect(service.actions.map((a) => a.action)).toEqual([
      "#HpeComputerSystemExt.SystemReset",
      "DellManager.v1_0_0#DellManager.ClearPending",
    ]);
  });
});
