import { readFileSync } from "node:fs";
import { join } from "node:path";
import { redfishStandardDriver, selectDriver } from "@racksmith/core";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { serviceProbeOf } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { SUPERMICRO_SCORE, supermicroDriver } from "../src/index.js";
import { MODELS, mockupDir } from "./support/mockups.js";

const links = {
  Systems: { "@odata.id": "/redfish/v1/Systems" },
  Managers: { "@odata.id": "/redfish/v1/Managers" },
  Chassis: { "@odata.id": "/redfish/v1/Chassis" },
};

function root(fields: Partial<ServiceRoot>): ServiceRoot {
  return { "@odata.id": "/redfish/v1", RedfishVersion: "1.11.0", ...links, ...fields };
}

function probe(serviceRoot: ServiceRoot, ids: Partial<ServiceProbe> = {}): ServiceProbe {
  return serviceProbeOf(serviceRoot, { systemIds: ["1"], managerIds: ["1"], chassisIds: ["1"], ...ids });
}

// Service roots as each vendor's BMC publishes them (only the fields detection looks at).
const OTHER_VENDORS: Record<string, ServiceProbe> = {
  "Dell iDRAC": probe(
    root({ Vendor: "Dell", Product: "Integrated Dell Remote Access Controller", Oem: { Dell: {} } }),
    {
      systemIds: ["System.Embedded.1"],
      managerIds: ["iDRAC.Embedded.1"],
    },
  ),
  "HPE iLO": probe(
    root({ Vendor: "HPE", Product: "ProLiant DL385 Gen10 Plus v2", Oem: { Hpe: { Manager: [] } } }),
  ),
  "Lenovo XCC": probe(root({ Vendor: "Lenovo", Oem: {} })),
  "NVIDIA BlueField BMC": probe(root({ Vendor: "Nvidia", Product: "Nvidia-BMCMezz" }), {
    systemIds: ["Bluefield"],
    managerIds: ["Bluefield_BMC"],
    chassisIds: ["Bluefield_BMC", "Card1"],
  }),
  "NVIDIA GB200": probe(root({ Vendor: "NVIDIA", Product: "GB200 NVL", Oem: { Nvidia: {} } }), {
    systemIds: ["System_0"],
    managerIds: ["BMC_0"],
  }),
  "AMI BMC with a Supermicro OEM section": probe(root({ Vendor: "AMI", Oem: { Ami: {}, Supermicro: {} } })),
  "plain DMTF service": probe(root({ Vendor: "Contoso", Product: "Redfish Service" })),
  "service root without vendor or OEM": probe(root({})),
};

function bundledRoot(model: (typeof MODELS)[number]): ServiceRoot {
  return JSON.parse(readFileSync(join(mockupDir(model), "redfish/v1/index.json"), "utf8")) as ServiceRoot;
}

describe("detection", () => {
  it.each(MODELS)(
    "claims the %s service root (no Vendor, first Oem key Supermicro) over the standard driver",
    (model) => {
      const serviceRoot = bundledRoot(model);
      expect(serviceRoot.Vendor).toBeUndefined();
      const score = supermicroDriver.detect(serviceRoot, probe(serviceRoot));
      expect(score).toBe(SUPERMICRO_SCORE);
      expect(score).toBeGreaterThan(redfishStandardDriver.detect(serviceRoot, probe(serviceRoot)));
      const selection = selectDriver([supermicroDriver], probe(serviceRoot), {
        fallback: redfishStandardDriver,
      });
      expect(selection.driver.name).toBe("supermicro");
      expect(selection.candidates).toEqual([
        { name: "supermicro", score: SUPERMICRO_SCORE },
        { name: "redfish-standard", score: 1 },
      ]);
    },
  );

  it("claims a root that names Supermicro as its Vendor (case-insensitive)", () => {
    const serviceRoot = root({ Vendor: "SUPERMICRO" });
    expect(supermicroDriver.detect(serviceRoot, probe(serviceRoot))).toBe(SUPERMICRO_SCORE);
  });

  it.each(Object.entries(OTHER_VENDORS))("does not claim the %s", (_name, other) => {
    expect(supermicroDriver.detect(other.serviceRoot, other)).toBe(0);
    expect(selectDriver([supermicroDriver], other, { fallback: redfishStandardDriver }).driver.name).toBe(
      "redfish-standard",
    );
  });
});
