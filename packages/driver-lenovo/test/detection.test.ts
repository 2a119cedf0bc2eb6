import { redfishStandardDriver } from "@racksmith/core";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { serviceProbeOf, startDriverMockup } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { detectLenovoXcc, lenovoDriver } from "../src/index.js";
import { LENOVO_MOCKUPS } from "./support/lenovoMockups.js";

const LINKS = {
  RedfishVersion: "1.15.0",
  Systems: { "@odata.id": "/redfish/v1/Systems" },
  Managers: { "@odata.id": "/redfish/v1/Managers" },
  Chassis: { "@odata.id": "/redfish/v1/Chassis" },
};

/** A probe as `probeService` would build it from this root and these `$metadata` OEM prefixes. */
function probeOf(
  root: ServiceRoot,
  oemPrefixes: string[] = [],
  ids: Partial<ServiceProbe> = {},
): ServiceProbe {
  const metadata = oemPrefixes.length
    ? { namespaces: oemPrefixes.map((p) => `${p}ComputerSystem`), oemNamespaces: [], oemPrefixes }
    : undefined;
  return serviceProbeOf(root, { metadata, systemIds: ["1"], managerIds: ["1"], chassisIds: ["1"], ...ids });
}

function score(root: ServiceRoot, oemPrefixes: string[] = [], ids: Partial<ServiceProbe> = {}): number {
  return detectLenovoXcc(root, probeOf(root, oemPrefixes, ids));
}

describe("detect", () => {
  it("claims an XCC from Vendor, more surely when $metadata publishes Lenovo namespaces", () => {
    expect(score({ ...LINKS, Vendor: "Lenovo" })).toBe(80);
    expect(score({ ...LINKS, Vendor: "Lenovo" }, ["Lenovo"])).toBe(95);
    expect(score({ ...LINKS, Vendor: " LENOVO " }, ["Lenovo"])).toBe(95);
    expect(score({ ...LINKS, Vendor: "Lenovo", Product: "ThinkSystem SR650 V3" }, ["Lenovo"])).toBe(100);
  });

  it("falls back to the first root Oem key when there is no Vendor (older XCC firmware)", () => {
    expect(score({ ...LINKS, Oem: { Lenovo: { "@odata.type": "#LenovoServiceRoot.v1_0_0.Root" } } })).toBe(
      85,
    );
  });

  it("does not claim Lenovo's AMI-based BMCs, which have none of the XCC OEM resources", () => {
    expect(score({ ...LINKS, Vendor: "Lenovo", Oem: { Ami: { RtpVersion: "1.0" } } }, ["Ami"])).toBe(0);
    expect(score({ ...LINKS, Vendor: "Lenovo" }, ["Ami", "OpenBMC"])).toBe(0);
  });

  it.each<[string, ServiceRoot, string[], Partial<ServiceProbe>]>([
    [
      "Dell iDRAC",
      { ...LINKS, Vendor: "Dell", Product: "Integrated Dell Remote Access Controller", Oem: { Dell: {} } },
      ["Dell"],
      { systemIds: ["System.Embedded.1"] },
    ],
    [
      "HPE iLO",
      { ...LINKS, Vendor: "HPE", Product: "ProLiant DL385 Gen10 Plus v2", Oem: { Hpe: {} } },
      ["Hpe"],
      {},
    ],
    ["Supermicro (no Vendor, Oem.Supermicro)", { ...LINKS, Oem: { Supermicro: {} } }, ["Smc"], {}],
    [
      "NVIDIA BlueField BMC",
      { ...LINKS, Vendor: "Nvidia", Product: "Nvidia-BMCMezz" },
      ["Nvidia"],
      { systemIds: ["Bluefield"], managerIds: ["Bluefield_BMC"], chassisIds: ["Card1"] },
    ],
    [
      "NVIDIA GB200 tray",
      { ...LINKS, Vendor: "NVIDIA", Product: "GB200 NVL" },
      ["Nvidia"],
      { systemIds: ["System_0"], managerIds: ["BMC_0"] },
    ],
    [
      "AMI (DGX H100)",
      { ...LINKS, Vendor: "AMI", Oem: { Ami: {} } },
      ["Ami"],
      { systemIds: ["DGX"], managerIds: ["BMC"] },
    ],
    ["plain DMTF service", { ...LINKS, Vendor: "Contoso", Product: "Example BMC" }, [], {}],
    ["service root without vendor", { ...LINKS }, [], {}],
  ])("does not claim a %s", (_, root, prefixes, ids) => {
    expect(score(root, prefixes, ids)).toBe(0);
  });

  it.each(Object.entries(LENOVO_MOCKUPS))(
    "recognises the %s mockup from a real probe, above RedfishStandard",
    async (_, mockup) => {
      const bmc = await startDriverMockup({ driver: lenovoDriver, mockup, auth: "none" });
      try {
        const { probe } = bmc;
        expect(probe.metadata?.oemPrefixes).toContain("Lenovo");
        const ours = lenovoDriver.detect(probe.serviceRoot, probe);
        expect(ours).toBe(95);
        expect(redfishStandardDriver.detect(probe.serviceRoot, probe)).toBeLessThan(ours);
      } finally {
        await bmc.close();
      }
    },
  );
});
