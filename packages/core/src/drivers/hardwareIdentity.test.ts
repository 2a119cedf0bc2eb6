import { afterEach, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "../redfish/index.js";
import { redfishStandardDriver } from "../standard/definition.js";
import { RedfishStandard } from "../standard/redfishStandard.js";
import type { BmcDriverDefinition } from "./bmcDriver.js";
import { connectBmc } from "./exploreBmc.js";

// A DMTF-style BMC: the root names no vendor and has an empty Oem; only the resources say who made it.
const RESOURCES: Record<string, unknown> = {
  "/redfish/v1": {
    "@odata.id": "/redfish/v1",
    Id: "RootService",
    Name: "Root Service",
    RedfishVersion: "1.15.0",
    Oem: {},
    Systems: { "@odata.id": "/redfish/v1/Systems" },
    Managers: { "@odata.id": "/redfish/v1/Managers" },
    Chassis: { "@odata.id": "/redfish/v1/Chassis" },
  },
  "/redfish/v1/Systems": { Members: [{ "@odata.id": "/redfish/v1/Systems/437XR1138R2" }] },
  "/redfish/v1/Managers": { Members: [{ "@odata.id": "/redfish/v1/Managers/BMC" }] },
  "/redfish/v1/Chassis": { Members: [{ "@odata.id": "/redfish/v1/Chassis/1U" }] },
  "/redfish/v1/Systems/437XR1138R2": {
    Id: "437XR1138R2",
    Manufacturer: "Contoso",
    Model: "3500",
    SKU: "8675309",
    SystemType: "Physical",
  },
  "/redfish/v1/Managers/BMC": { Id: "BMC", Model: "Joo Janta 200", FirmwareVersion: "4.4.6521" },
};

const contoso: BmcDriverDefinition = {
  name: "contoso",
  vendor: "Contoso",
  capabilities: [],
  detect: () => 0,
  refine: (hardware) => (hardware.system?.manufacturer === "Contoso" ? 80 : undefined),
  create: (client, context) => new RedfishStandard(client, context),
};

let bmc: FakeBmc | undefined;
afterEach(async () => {
  await bmc?.stop();
  bmc = undefined;
});

async function serve(broken: readonly string[] = []): Promise<RedfishClient> {
  bmc = await FakeBmc.start((request, response) => {
    const path = request.url.split("?")[0] ?? "";
    if (broken.includes(path)) return sendJson(response, 500, redfishError("Base.1.8.InternalError"));
    const body = RESOURCES[path];
    return body ? sendJson(response, 200, body) : sendJson(response, 404, redfishError("Base.1.8.NotFound"));
  });
  return new RedfishClient({ address: bmc.url, auth: "none" });
}

const reads = (path: string) => bmc?.requests.filter((r) => r.method === "GET" && r.url === path).length;

describe("detection's second step on a BMC whose root names no vendor", () => {
  it("picks the driver that recognises the system's Manufacturer, reading the system and manager once", async () => {
    const client = await serve();
    try {
      const { selection } = await connectBmc(client, { drivers: [contoso], fallback: redfishStandardDriver });
      expect(selection.driver.name).toBe("contoso");
      expect(selection.candidates).toEqual([
        { name: "contoso", score: 80 },
        { name: "redfish-standard", score: 1 },
      ]);
      expect(reads("/redfish/v1/Systems/437XR1138R2")).toBe(1);
      expect(reads("/redfish/v1/Managers/BMC")).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("hands every refine the same identity, with what could not be read left out and noted", async () => {
    const client = await serve(["/redfish/v1/Managers/BMC"]);
    const seen: unknown[] = [];
    const watcher = (name: string): BmcDriverDefinition => ({
      ...contoso,
      name,
      refine: (hardware) => {
        seen.push(hardware);
        return undefined;
      },
    });
    try {
      const { driver } = await connectBmc(client, {
        drivers: [watcher("a"), watcher("b")],
        fallback: redfishStandardDriver,
      });
      expect(seen).toEqual([
        {
          system: {
            id: "437XR1138R2",
            manufacturer: "Contoso",
            model: "3500",
            sku: "8675309",
            systemType: "Physical",
          },
        },
        seen[0],
      ]);
      expect(seen[1]).toBe(seen[0]);
      expect(reads("/redfish/v1/Managers/BMC")).toBe(1);
      const report = await driver.explore();
      expect(report.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: "info",
          path: "/redfish/v1/Managers/BMC",
          message: expect.stringMatching(/^not read for driver detection \(HTTP 500\)/),
        }),
      );
    } finally {
      await client.close();
    }
  });

  it("reads nothing more when no candidate refines, or when a driver is pinned", async () => {
    const client = await serve();
    try {
      await connectBmc(client, { drivers: [], fallback: redfishStandardDriver });
      await connectBmc(client, { drivers: [contoso], fallback: redfishStandardDriver, pinned: "contoso" });
      expect(reads("/redfish/v1/Systems/437XR1138R2")).toBe(0);
      expect(reads("/redfish/v1/Managers/BMC")).toBe(0);
    } finally {
      await client.close();
    }
  });
});
