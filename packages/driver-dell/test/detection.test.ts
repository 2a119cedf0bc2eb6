import { collectRegistrations, redfishStandardDriver } from "@racksmith/core";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { describe, expect, it } from "vitest";
import plugin, { dellDriver } from "../src/index.js";

function probe(
  root: ServiceRoot,
  ids: { systems?: string[]; managers?: string[]; chassis?: string[] } = {},
): ServiceProbe {
  const oemKeys = Object.keys(root.Oem ?? {});
  return {
    serviceRoot: root,
    vendor: root.Vendor ?? oemKeys[0],
    product: root.Product,
    oemKeys,
    metadata: undefined,
    systemIds: ids.systems ?? [],
    managerIds: ids.managers ?? [],
    chassisIds: ids.chassis ?? [],
    diagnostics: [],
  };
}

const base: ServiceRoot = { RedfishVersion: "1.13.1", Systems: { "@odata.id": "/redfish/v1/Systems" } };
const idracIds = {
  systems: ["System.Embedded.1"],
  managers: ["iDRAC.Embedded.1"],
  chassis: ["System.Embedded.1"],
};

const score = (root: ServiceRoot, ids?: Parameters<typeof probe>[1]) => {
  const p = probe(root, ids);
  return dellDriver.detect(p.serviceRoot, p);
};

describe("detect", () => {
  it("is certain of an iDRAC 9 service root (Vendor, Product, Oem.Dell, iDRAC ids)", () => {
    const root = {
      ...base,
      Vendor: "Dell",
      Product: "Integrated Dell Remote Access Controller",
      Oem: { Dell: { ServiceTag: "RSK7501" } },
    };
    expect(score(root, idracIds)).toBe(100);
    expect(score(root, idracIds)).toBeGreaterThan(redfishStandardDriver.detect(root, probe(root)));
  });

  it("recognises older firmware without Vendor by its first Oem key, and an iDRAC without Product by its ids", () => {
    expect(score({ ...base, Oem: { Dell: {} } }, idracIds)).toBe(75);
    expect(score({ ...base, Vendor: "Dell" })).toBe(60);
  });

  it.each([
    [
      "HPE iLO",
      { Vendor: "HPE", Product: "ProLiant DL385 Gen10 Plus v2", Oem: { Hpe: {} } },
      { managers: ["1"] },
    ],
    ["Lenovo XCC", { Vendor: "Lenovo", Oem: { Lenovo: {} } }, { managers: ["1"] }],
    ["Supermicro (no Vendor, Oem.Supermicro)", { Oem: { Supermicro: {} } }, { managers: ["1"] }],
    [
      "NVIDIA BlueField BMC",
      { Vendor: "Nvidia", Product: "Nvidia-BMCMezz", Oem: { Nvidia: {} } },
      { systems: ["Bluefield"], managers: ["Bluefield_BMC"], chassis: ["Card1"] },
    ],
    [
      "NVIDIA GB200",
      { Vendor: "NVIDIA", Product: "GB200 NVL" },
      { systems: ["System_0"], managers: ["BMC_0"] },
    ],
    ["AMI (DGX)", { Vendor: "AMI", Oem: { Ami: {} } }, { systems: ["DGX"], managers: ["BMC"] }],
    ["plain DMTF service", { Vendor: "Contoso", Product: "Example BMC" }, { managers: ["bmc"] }],
    ["service without vendor", {}, {}],
    [
      "Dell service that is not an iDRAC (chassis manager)",
      { Vendor: "Dell", Product: "OpenManage Enterprise Modular" },
      { managers: ["Chassis-Manager"] },
    ],
  ] as Array<[string, Partial<ServiceRoot>, Parameters<typeof probe>[1]]>)(
    "does not claim a %s",
    (_name, root, ids) => {
      expect(score({ ...base, ...root }, ids)).toBe(0);
    },
  );
});

describe("the plugin", () => {
  it("registers the dell driver under its package name and version", async () => {
    const registered = await collectRegistrations(plugin);
    expect(registered.bmcDrivers).toEqual([dellDriver]);
    const { version } = (await import("../package.json", { with: { type: "json" } })).default;
    expect(plugin).toMatchObject({ name: "@racksmith/driver-dell", version, apiVersion: 1 });
  });

  it("declares every capability but the BlueField ones, and BIOS profiles as its settings", () => {
    expect(dellDriver.capabilities).not.toContain("dpu");
    expect(dellDriver.capabilities).toHaveLength(25);
    expect(dellDriver.settingsSchema).toMatchObject({
      additionalProperties: false,
      properties: { biosProfiles: { type: "object" }, biosProfile: { type: "string" } },
    });
  });
});
