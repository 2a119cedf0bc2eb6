import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";
import { serviceProbeOf } from "@racksmith/testkit";

const LINKS = {
  RedfishVersion: "1.11.0",
  Systems: { "@odata.id": "/redfish/v1/Systems" },
  Managers: { "@odata.id": "/redfish/v1/Managers" },
  Chassis: { "@odata.id": "/redfish/v1/Chassis" },
};

/** Small service roots of the other vendors, shaped like their real ones (only what detection reads). */
export const OTHER_VENDOR_ROOTS: Readonly<Record<string, ServiceRoot>> = {
  "Dell iDRAC": {
    ...LINKS,
    Vendor: "Dell",
    Product: "Integrated Dell Remote Access Controller",
    Oem: { Dell: { "@odata.type": "#DellServiceRoot.v1_0_0.DellServiceRoot", ServiceTag: "RS00001" } },
  },
  "Lenovo XCC": {
    ...LINKS,
    Vendor: "Lenovo",
    Oem: { Lenovo: { "@odata.type": "#LenovoServiceRoot.v1_0_0" } },
  },
  Supermicro: { ...LINKS, Oem: { Supermicro: { "@odata.type": "#SmcServiceRoot.v1_0_0.SmcServiceRoot" } } },
  "NVIDIA BlueField BMC": { ...LINKS, Vendor: "Nvidia", Product: "Nvidia-BMCMezz", Oem: { Nvidia: {} } },
  "NVIDIA GB200 tray": { ...LINKS, Vendor: "NVIDIA", Product: "GB200 NVL", Oem: {} },
  "NVIDIA GH200 / NVSwitch tray": { ...LINKS, Vendor: "NVIDIA", Product: "P3809" },
  "AMI MegaRAC (DGX)": { ...LINKS, Vendor: "AMI", Oem: { Ami: {} } },
  "plain DMTF service": { ...LINKS },
  // iLO 4 (Gen9) names itself Oem.Hp: a different tree this driver was not written for.
  "HP iLO 4": { ...LINKS, Oem: { Hp: { Manager: [{ ManagerType: "iLO 4" }] } } },
};

/** What `probeService` would derive from a root, without a BMC. */
export function probeOf(serviceRoot: ServiceRoot): ServiceProbe {
  return serviceProbeOf(serviceRoot, { systemIds: ["1"], managerIds: ["1"], chassisIds: ["1"] });
}

/** The service root of a DMTF mockup folder. */
export function mockupRoot(mockup: string): ServiceRoot {
  return JSON.parse(readFileSync(join(mockup, "redfish", "v1", "index.json"), "utf8")) as ServiceRoot;
}
