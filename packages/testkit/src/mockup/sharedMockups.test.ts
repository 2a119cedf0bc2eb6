import { describe, expect, it } from "vitest";
import { presentSharedVendors, type SharedVendor, sharedMockup } from "../sharedMockups/index.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { MockupService } from "./mockupService.js";
import type { MockupResponse } from "./types.js";

const present = presentSharedVendors("the mockup tests against real vendor captures");

/** Captures that hold `@Redfish.Copyright` under `redfish/v1` (registries); it must never be served. */
const COPYRIGHTED: Partial<Record<SharedVendor, string>> = {
  dell: "/redfish/v1/Registries/BaseMessages/BaseRegistry.json",
  hpe: "/redfish/v1/RegistryStore/registries/en/Base.json",
  lenovo: "/redfish/v1/schemas/registries/Base.1.12.1.json",
  nvidia_dpu: "/redfish/v1/Registries/Base/Base",
};

const get = (service: MockupService, path: string): Promise<MockupResponse> =>
  service.handle({ method: "GET", path });
const body = (response: MockupResponse): JsonObject => (isJsonObject(response.body) ? response.body : {});

function linksIn(value: JsonValue, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) linksIn(item, out);
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "@odata.id" && typeof child === "string" && child.startsWith("/redfish/v1")) {
        out.add(child.replace(/#.*$/, ""));
      } else {
        linksIn(child, out);
      }
    }
  }
}

describe.skipIf(present.length === 0)("real vendor captures", () => {
  describe.each(present)("%s", (vendor) => {
    const open = () => MockupService.open(sharedMockup(vendor) ?? "");

    it("is detected as a full-form mockup and serves its service root", async () => {
      const service = await open();
      expect(service.tree.layout.kind).toBe("full");
      expect((await get(service, "/redfish")).body).toEqual({ v1: "/redfish/v1/" });
      const root = await get(service, "/redfish/v1/");
      expect(root.status).toBe(200);
      expect(body(root)["@odata.id"]).toMatch(/^\/redfish\/v1\/?$/);
      const metadata = await get(service, "/redfish/v1/$metadata");
      expect(metadata.headers["content-type"]).toBe("application/xml");
    });

    it("resolves the links it serves (breadth-first sample), never failing and never showing the copyright", async () => {
      const service = await open();
      const queue = ["/redfish/v1"];
      const seen = new Set(queue);
      const statuses = new Map<number, number>();
      while (queue.length > 0 && seen.size < 250) {
        const path = queue.shift() ?? "";
        const answer = await get(service, path);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, path).toBeLessThan(500);
        expect(JSON.stringify(answer.body ?? ""), path).not.toContain("@Redfish.Copyright");
        const links = new Set<string>();
        linksIn(body(answer), links);
        for (const link of links) {
          if (!seen.has(link)) {
            seen.add(link);
            queue.push(link);
          }
        }
      }
      expect(statuses.get(200) ?? 0).toBeGreaterThan(statuses.get(404) ?? 0);
      const copyrighted = COPYRIGHTED[vendor];
      if (copyrighted) {
        const registry = await get(service, copyrighted);
        expect(registry.status).toBe(200);
        expect(JSON.stringify(registry.body)).not.toContain("@Redfish.Copyright");
      }
    });

    it("applies the vendor's pending BIOS settings on ForceRestart", async () => {
      const service = await open();
      const systems = body(await get(service, "/redfish/v1/Systems"));
      const systemPath = String((systems.Members as JsonObject[])[0]?.["@odata.id"]);
      const system = body(await get(service, systemPath));
      const biosPath = String((system.Bios as JsonObject)["@odata.id"]);
      const bios = body(await get(service, biosPath));
      const settingsPath = String(
        ((bios["@Redfish.Settings"] as JsonObject).SettingsObject as JsonObject)["@odata.id"],
      );
      // An attribute the BIOS has (strict mode refuses unknown ones), set to a value it does not hold.
      const [attribute] = Object.entries(bios.Attributes as JsonObject).find(
        ([, value]) => typeof value === "string",
      ) ?? [""];
      expect(
        (
          await service.handle({
            method: "PATCH",
            path: settingsPath,
            body: { Attributes: { [attribute]: "RacksmithProbe" } },
          })
        ).status,
      ).toBe(204);
      expect(body(await get(service, biosPath)).Attributes).not.toHaveProperty(attribute, "RacksmithProbe");
      const target = String(((system.Actions as JsonObject)["#ComputerSystem.Reset"] as JsonObject).target);
      const reset = await service.handle({
        method: "POST",
        path: target,
        body: { ResetType: "ForceRestart" },
      });
      expect(reset.status).toBe(204);
      expect(body(await get(service, biosPath)).Attributes).toHaveProperty(attribute, "RacksmithProbe");
      expect(body(await get(service, settingsPath)).Attributes).toEqual({});
    });
  });

  describe.skipIf(!present.includes("dell"))("dell paths", () => {
    it("maps ':' and '_0x23_' paths literally, percent-encoded or not, and serves saved next-link pages", async () => {
      const service = await MockupService.open(sharedMockup("dell") ?? "");
      const drive =
        "/redfish/v1/Systems/System.Embedded.1/Storage/CPU.1/Drives/Disk.Bay.0:Enclosure.Internal.0-1";
      expect(body(await get(service, drive))["@odata.id"]).toBe(drive);
      expect(body(await get(service, drive.replace(":", "%3A")))["@odata.id"]).toBe(drive);
      const fru = "/redfish/v1/Chassis/System.Embedded.1/Oem/Dell/DellAssembly/DIMM.Socket.A1_0x23_FRU";
      expect((await get(service, fru)).status).toBe(200);
      const slots = "/redfish/v1/Systems/System.Embedded.1/Oem/Dell/DellSlots";
      const first = body(await get(service, slots));
      expect(first["Members@odata.nextLink"]).toBe(`${slots}?$skip=50`);
      const second = body(await get(service, `${slots}?$skip=50`));
      expect((second.Members as JsonObject[]).length).toBe(17);
      expect((await get(service, "/redfish/v1/AccountService/ExternalAccountProviders")).status).toBe(400);
    });
  });

  describe.skipIf(!present.includes("hpe"))("hpe paths", () => {
    it("resolves lower-case, trailing-slash links and encoded names", async () => {
      const service = await MockupService.open(sharedMockup("hpe") ?? "");
      const settings = await get(service, "/redfish/v1/systems/1/bios/settings/");
      expect(body(settings)["@odata.id"]).toBe("/redfish/v1/systems/1/bios/settings/");
      expect(body(await get(service, "/redfish/v1/Systems/1/Bios/Settings"))).toEqual(body(settings));
      const registry = "/redfish/v1/Registries/%23SmartStorageMessages.v2_0_1.SmartStorageMessages";
      expect((await get(service, registry)).status).toBe(200);
      const patched = await service.handle({
        method: "PATCH",
        path: "/redfish/v1/systems/1/bios/settings/",
        body: { Attributes: { AdminName: "ops" } },
      });
      expect(patched.status).toBe(204);
      expect(body(await get(service, "/redfish/v1/Systems/1/Bios/settings")).Attributes).toMatchObject({
        AdminName: "ops",
      });
      const action = await service.handle({
        method: "POST",
        path: "/redfish/v1/systems/1/bios/settings/Actions/Bios.ResetBios/",
        body: {},
      });
      expect(action.status).toBe(204);
      expect(service.actions.at(-1)?.action).toBe("#Bios.ResetBios");
    });
  });
});
