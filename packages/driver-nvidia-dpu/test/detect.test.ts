import { redfishStandardDriver } from "@racksmith/core";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { serviceProbeOf } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { DETECTION_SCORE, nvidiaDpuDriver } from "../src/index.js";

const LINKS = {
  RedfishVersion: "1.17.0",
  Systems: { "@odata.id": "/redfish/v1/Systems" },
  Managers: { "@odata.id": "/redfish/v1/Managers" },
  Chassis: { "@odata.id": "/redfish/v1/Chassis" },
};

/** A probe as `probeService` builds it: vendor from `Vendor`, else the first `Oem` key. */
function probe(
  root: Omit<ServiceRoot, keyof typeof LINKS>,
  ids: { systems?: string[]; managers?: string[]; chassis?: string[] } = {},
): ServiceProbe {
  return serviceProbeOf(
    { ...LINKS, ...root },
    { systemIds: ids.systems, managerIds: ids.managers, chassisIds: ids.chassis },
  );
}

const score = (p: ServiceProbe) => nvidiaDpuDriver.detect(p.serviceRoot, p);

const BLUEFIELD_IDS = {
  systems: ["Bluefield"],
  managers: ["Bluefield_BMC"],
  chassis: ["Bluefield_BMC", "Bluefield_ERoT", "Card1"],
};

describe("detect", () => {
  it("claims a BlueField BMC with certainty, above the standard driver", () => {
    const bluefield = probe({ Vendor: "Nvidia", Product: "Nvidia-BMCMezz" }, BLUEFIELD_IDS);
    expect(score(bluefield)).toBe(DETECTION_SCORE.bluefieldSystemAndCard);
    expect(score(bluefield)).toBeGreaterThan(redfishStandardDriver.detect(bluefield.serviceRoot, bluefield));
    // Vendor spelled in capitals, as newer firmware does.
    expect(score(probe({ Vendor: "NVIDIA", Product: "BlueField BMC" }, BLUEFIELD_IDS))).toBe(95);
  });

  it("scores weaker evidence lower", () => {
    expect(score(probe({ Vendor: "Nvidia" }, { systems: ["Bluefield"] }))).toBe(
      DETECTION_SCORE.bluefieldSystemOrCard,
    );
    expect(score(probe({ Vendor: "Nvidia" }, { managers: ["Bluefield_BMC"], chassis: ["Card1"] }))).toBe(
      DETECTION_SCORE.bluefieldSystemOrCard,
    );
    // The collections could not be read (e.g. a password change is pending): the product still tells.
    expect(score(probe({ Vendor: "Nvidia", Product: "Nvidia-BMCMezz" }))).toBe(DETECTION_SCORE.productOnly);
  });

  it.each([
    [
      "Dell iDRAC",
      probe(
        { Vendor: "Dell", Product: "Integrated Dell Remote Access Controller", Oem: { Dell: {} } },
        { systems: ["System.Embedded.1"], managers: ["iDRAC.Embedded.1"], chassis: ["System.Embedded.1"] },
      ),
    ],
    [
      "HPE iLO",
      probe(
        { Vendor: "HPE", Product: "ProLiant DL385 Gen10 Plus v2", Oem: { Hpe: {} } },
        { systems: ["1"], managers: ["1"], chassis: ["1"] },
      ),
    ],
    [
      "Lenovo XCC",
      probe({ Vendor: "Lenovo", Oem: { Lenovo: {} } }, { systems: ["1"], managers: ["1"], chassis: ["1"] }),
    ],
    [
      "Supermicro (vendor from Oem)",
      probe({ Oem: { Supermicro: {} } }, { systems: ["1"], managers: ["1"], chassis: ["1"] }),
    ],
    [
      "NVIDIA GB200 NVL",
      probe(
        { Vendor: "NVIDIA", Product: "GB200 NVL" },
        {
          systems: ["System_0", "HGX_Baseboard_0"],
          managers: ["BMC_0", "HGX_BMC_0"],
          chassis: ["BMC_0", "Chassis_0", "HGX_Chassis_0"],
        },
      ),
    ],
    [
      "NVIDIA GH200 (P3809)",
      probe(
        { Vendor: "NVIDIA", Product: "P3809" },
        {
          systems: ["System_0", "HGX_Baseboard_0"],
          managers: ["BMC_0", "HGX_BMC_0"],
          chassis: ["BMC_0", "HGX_Chassis_0"],
        },
      ),
    ],
    [
      "NVIDIA NVLink switch tray (P3809)",
      probe(
        { Vendor: "NVIDIA", Product: "P3809" },
        { systems: ["System_0"], managers: ["BMC_0"], chassis: ["BMC_0", "MGX_NVSwitch_0"] },
      ),
    ],
    [
      "a GB200 tray that lists a Card1 chassis",
      probe({ Vendor: "NVIDIA", Product: "GB200 NVL" }, { systems: ["Bluefield"], chassis: ["Card1"] }),
    ],
    [
      "another NVIDIA tray",
      probe(
        { Vendor: "NVIDIA", Product: "HGX B200" },
        { systems: ["HGX_Baseboard_0"], managers: ["HGX_BMC_0"], chassis: ["HGX_Chassis_0"] },
      ),
    ],
    [
      "NVIDIA DGX H100 (AMI BMC)",
      probe(
        { Vendor: "AMI", Product: "AMI Redfish Server" },
        { systems: ["DGX"], managers: ["BMC"], chassis: ["DGX"] },
      ),
    ],
    [
      "a plain DMTF service",
      probe(
        { Vendor: "Contoso", Product: "Example BMC" },
        { systems: ["1"], managers: ["bmc"], chassis: ["1"] },
      ),
    ],
    ["a service root without vendor", probe({}, { systems: ["Bluefield"], chassis: ["Card1"] })],
  ])("does not claim %s", (_name, other) => {
    expect(score(other)).toBe(0);
  });
});
