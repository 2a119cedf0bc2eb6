import { beforeEach, describe, expect, it } from "vitest";
import { TINY_FULL } from "./__fixtures__/paths.js";
import type { MockupResetContext } from "./behaviors.js";
import type { JsonObject } from "./json.js";
import { MockupService } from "./mockupService.js";
import { redfishError } from "./redfishMessages.js";
import { jsonResponse, noContent } from "./responses.js";

let service: MockupService;

beforeEach(async () => {
  service = await MockupService.open(TINY_FULL);
});

describe("behaviors", () => {
  it("intercept an action by name and can fall through to the built-in handling", async () => {
    const seen: string[] = [];
    service.use({
      name: "refuse-off",
      actions: {
        "#ComputerSystem.Reset": ({ body, action }) => {
          seen.push(`${action}:${String(body.ResetType)}`);
          return body.ResetType === "ForceOff"
            ? redfishError(409, "GeneralError", [], { message: "busy" })
            : undefined;
        },
      },
    });
    const path = "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset";
    expect((await service.handle({ method: "POST", path, body: { ResetType: "ForceOff" } })).status).toBe(
      409,
    );
    expect(await service.read("/redfish/v1/Systems/1")).toHaveProperty("PowerState", "On");
    expect(
      (await service.handle({ method: "POST", path, body: { ResetType: "GracefulShutdown" } })).status,
    ).toBe(204);
    expect(await service.read("/redfish/v1/Systems/1")).toHaveProperty("PowerState", "Off");
    expect(seen).toEqual(["#ComputerSystem.Reset:ForceOff", "#ComputerSystem.Reset:GracefulShutdown"]);
  });

  it("intercept an OEM action by target glob and write vendor state", async () => {
    service.use({
      name: "blink",
      actions: {
        "/redfish/v1/Systems/*/Actions/Oem/**": async ({ service: s, resourcePath }) => {
          await s.merge(resourcePath, { IndicatorLED: "Blinking" });
          return jsonResponse(200, { Blinking: true });
        },
      },
    });
    const answer = await service.handle({
      method: "POST",
      path: "/redfish/v1/Systems/1/Actions/Oem/RacksmithSystem.Blink",
    });
    expect(answer).toMatchObject({ status: 200, body: { Blinking: true } });
    expect(await service.read("/redfish/v1/Systems/1")).toHaveProperty("IndicatorLED", "Blinking");
  });

  it("intercept PATCH and POST by path glob, seeing the current resource", async () => {
    const currentNames: unknown[] = [];
    const remove = service.use({
      name: "jobs",
      patch: {
        "/redfish/v1/Systems/*/Bios/Settings": async ({ service: s, body }) => {
          const job = await s.createMember(
            "/redfish/v1/Managers/BMC/Jobs",
            { JobState: "Scheduled", Body: body },
            {
              collectionType: "#JobCollection.JobCollection",
            },
          );
          return noContent({ location: job.path });
        },
      },
      post: {
        "/redfish/v1/EventService/**": ({ current }) => {
          currentNames.push(current?.Name);
          return undefined;
        },
      },
    });
    const patched = await service.handle({
      method: "PATCH",
      path: "/redfish/v1/Systems/1/Bios/Settings",
      body: { Attributes: { BootMode: "Legacy" } },
    });
    expect(patched.headers.location).toBe("/redfish/v1/Managers/BMC/Jobs/1");
    expect(await service.read("/redfish/v1/Managers/BMC/Jobs/1")).toMatchObject({
      JobState: "Scheduled",
      Id: "1",
    });
    expect(await service.read("/redfish/v1/Systems/1/Bios/Settings")).toBeUndefined();
    const created = await service.handle({
      method: "POST",
      path: "/redfish/v1/EventService/Subscriptions",
      body: { Destination: "https://x" },
    });
    expect(created.status).toBe(201);
    expect(currentNames).toEqual(["Event Subscriptions"]);
    remove();
    await service.handle({ method: "POST", path: "/redfish/v1/EventService/Subscriptions", body: {} });
    expect(currentNames).toHaveLength(1);
  });

  it("react to a system reset after the built-in effects", async () => {
    const resets: Array<Omit<MockupResetContext, "service">> = [];
    service.use({
      name: "vendor-pending",
      onReset: async ({ service: s, ...context }) => {
        resets.push(context);
        if (context.booted)
          await s.merge("/redfish/v1/Managers/BMC", { Oem: { Applied: true } as JsonObject });
      },
    });
    await service.handle({
      method: "POST",
      path: "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
      body: { ResetType: "ForceRestart" },
    });
    expect(resets).toEqual([
      {
        systemPath: "/redfish/v1/Systems/1",
        resetType: "ForceRestart",
        powerStateBefore: "On",
        powerStateAfter: "On",
        booted: true,
      },
    ]);
    expect(await service.read("/redfish/v1/Managers/BMC")).toMatchObject({ Oem: { Applied: true } });
  });
});
