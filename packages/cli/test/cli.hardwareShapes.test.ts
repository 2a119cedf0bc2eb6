import { dirname, join } from "node:path";
import type { ExplorationReport } from "@racksmith/core";
import { EXAMPLE_MOCKUP, MockupServer, redfishCliArgs } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/runCliForTest.js";

/**
 * Issue 18: hardware whose Redfish tree is not a 1U server's, read right through `racksmith redfish explore`.
 * Each shape is one of the testkit's own mockups, served by the mockup server in strict mode (its default).
 */
const mockup = (name: string) => join(dirname(EXAMPLE_MOCKUP), name);
const SHAPES = ["compute-tray", "multi-system", "nvlink-switch-tray", "power-shelf"] as const;
type Shape = (typeof SHAPES)[number];

const servers = new Map<Shape, MockupServer>();
const reports = new Map<Shape, ExplorationReport>();
const bmc = (shape: Shape, ...operation: string[]) =>
  redfishCliArgs({ url: (servers.get(shape) as MockupServer).url }, ...operation);
const report = (shape: Shape) => reports.get(shape) as ExplorationReport;

beforeAll(async () => {
  for (const shape of SHAPES) {
    const server = await MockupServer.start({ root: mockup(shape) });
    servers.set(shape, server);
    reports.set(shape, await cliJson<ExplorationReport>(bmc(shape, "explore")));
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
});

describe.each(SHAPES)("the %s mockup", (shape) => {
  it("is valid Redfish: every link answers its own resource, every collection counts its members", async () => {
    const server = servers.get(shape) as MockupServer;
    const seen = new Set<string>();
    const queue = ["/redfish/v1"];
    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (seen.has(path)) continue;
      seen.add(path);
      const answer = await fetch(`${server.url}${path}`);
      expect(answer.status, path).toBe(200);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body["@odata.id"], path).toBe(path);
      expect(body["@odata.type"], path).toMatch(/^#\w+(\.v\d+_\d+_\d+)?\.\w+$/);
      if (Array.isArray(body.Members)) expect(body["Members@odata.count"], path).toBe(body.Members.length);
      queue.push(...linksIn(body, true).filter((link) => !link.includes("/Actions/")));
    }
    expect(seen.size).toBeGreaterThan(15);
  });

  it("explores with no warning and nothing unread", () => {
    const problems = report(shape).diagnostics.filter((d) => d.severity !== "info" || d.unread);
    // A power shelf has no Systems at all: the one thing the report notes about its service root.
    expect(problems.map((d) => `${d.path} ${d.field ?? ""}`)).toEqual(
      shape === "power-shelf" ? ["/redfish/v1 Systems"] : [],
    );
  });
});

describe("a compute tray whose ComputerSystem.SerialNumber is empty", () => {
  it("reports its chassis' serial for the host, and says which chassis", () => {
    const tray = report("compute-tray");
    expect(tray.endpointKind).toBe("host");
    expect(tray.systems).toEqual([
      expect.objectContaining({
        id: "System_0",
        primary: true,
        serialNumber: "RSCT00000001",
        serialNumberSource: { chassisId: "Chassis_0", via: "Links.Chassis" },
      }),
    ]);
    expect(tray.diagnostics).toContainEqual({
      severity: "info",
      path: "/redfish/v1/Systems/System_0",
      field: "SerialNumber",
      message: "SerialNumber is empty; the system reports chassis Chassis_0's serial (tied by Links.Chassis)",
    });
  });

  it("shows that serial in the explore table", async () => {
    const run = await cli(bmc("compute-tray", "explore"));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^System_0\s+Racksmith\s+Compute Tray CT1\s+RSCT00000001\s+On\b/m);
  });
});

describe("a BMC with a host system and an HGX baseboard system", () => {
  it("drives the host system: it is primary and listed first, whatever the collection's order", async () => {
    const host = report("multi-system");
    expect(host.endpointKind).toBe("host");
    expect(host.systems.map((s) => [s.id, s.primary, s.serialNumber])).toEqual([
      ["DGX", true, "RSDGX0000001"],
      ["HGX_Baseboard_0", false, "RSHGX0000001"],
    ]);
    const options = await cliJson<Array<{ reference: string }>>(bmc("multi-system", "boot-options"));
    expect(options.map((o) => o.reference)).toEqual(["Boot0001", "Boot0002"]);
  });

  it("reports each PCIe device exactly once, with its system and chassis", () => {
    const devices = report("multi-system").systems.flatMap((system) =>
      system.pcieDevices.map((device) => {
        expect(device.systemId).toBe(system.id);
        return [device.id, device.systemId, device.chassisId, device.serialNumber];
      }),
    );
    expect(devices.sort()).toEqual([
      ["DPU0", "DGX", "DGX", "MT2333X00201"],
      ["GPU_SXM_1", "HGX_Baseboard_0", "HGX_GPU_SXM_1", "RSGPU0000001"],
      ["GPU_SXM_2", "HGX_Baseboard_0", "HGX_GPU_SXM_2", "RSGPU0000002"],
      ["NIC0", "DGX", "DGX", "RSNIC0000001"],
      ["NVSwitch_0", "HGX_Baseboard_0", "HGX_NVSwitch_0", "RSNVSW000001"],
    ]);
  });
});

describe("BMCs that are not hosts", () => {
  it("reports an NVLink switch tray as a switch, with no host to read", () => {
    const tray = report("nvlink-switch-tray");
    expect(tray).toMatchObject({ endpointKind: "switch", systems: [] });
    expect(tray.endpointKindReason).toBe("chassis MGX_NVSwitch_0 (Enclosure); Fabrics list 2 switches");
    expect(tray.lockdownStatus).toBeUndefined();
    expect(tray.chassis.map((c) => c.serialNumber)).toContain("RSST00000001");
    expect(tray.firmware.map((f) => f.id).sort()).toEqual(["BMC_0", "NVSwitch_0"]);
  });

  it("reports a power shelf as a power shelf", () => {
    const shelf = report("power-shelf");
    expect(shelf).toMatchObject({ endpointKind: "powerShelf", systems: [] });
    expect(shelf.endpointKindReason).toBe("no computer system; PowerEquipment lists 1 power shelf");
  });

  it("names the kind in the explore table", async () => {
    const run = await cli(bmc("nvlink-switch-tray", "explore"));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^endpointKind\s+switch$/m);
  });
});

/** Every `@odata.id` inside a resource (its own excluded at the top level). */
function linksIn(value: unknown, top = false): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => linksIn(item));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "@odata.id" ? (top || typeof inner !== "string" ? [] : [inner]) : linksIn(inner),
  );
}
