import { afterEach, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import type { EthernetInterfaceInfo } from "../drivers/types.js";
import { silentLogger } from "../logging/index.js";
import { RedfishClient } from "../redfish/index.js";
import { RedfishStandard } from "./redfishStandard.js";

const S = "/redfish/v1/Systems/437XR1138R2";
const E = `${S}/EthernetInterfaces`;
const MAC = "02:C0:FF:EE:00:01";

// A DMTF-style BMC: no Vendor, a NIC with two VLAN interfaces on its MAC (one typed, one of an older BMC).
const RESOURCES: Record<string, unknown> = {
  "/redfish/v1": {
    "@odata.id": "/redfish/v1",
    RedfishVersion: "1.15.0",
    Oem: {},
    Systems: { "@odata.id": "/redfish/v1/Systems" },
    Managers: { "@odata.id": "/redfish/v1/Managers" },
    Chassis: { "@odata.id": "/redfish/v1/Chassis" },
  },
  "/redfish/v1/Systems": { Members: [{ "@odata.id": S }] },
  "/redfish/v1/Managers": { Members: [] },
  "/redfish/v1/Chassis": { Members: [] },
  [S]: {
    "@odata.id": S,
    Id: "437XR1138R2",
    Manufacturer: "Contoso",
    SerialNumber: "437XR1138R2",
    EthernetInterfaces: { "@odata.id": E },
  },
  [E]: { Members: ["NIC1", "NIC1-VLAN100", "NIC1-VLAN200"].map((id) => ({ "@odata.id": `${E}/${id}` })) },
  [`${E}/NIC1`]: {
    Id: "NIC1",
    EthernetInterfaceType: "Physical",
    MACAddress: MAC,
    UefiDevicePath: "PciRoot(0x0)/Pci(0x1C,0x0)/Pci(0x0,0x0)",
  },
  [`${E}/NIC1-VLAN100`]: {
    Id: "NIC1-VLAN100",
    EthernetInterfaceType: "Virtual",
    MACAddress: MAC,
    VLAN: { VLANEnable: true, VLANId: 100 },
    Links: { RelatedInterfaces: [{ "@odata.id": `${E}/NIC1` }] },
  },
  [`${E}/NIC1-VLAN200`]: { Id: "NIC1-VLAN200", MACAddress: MAC, VLAN: { VLANEnable: true, VLANId: 200 } },
};

let bmc: FakeBmc | undefined;
let client: RedfishClient | undefined;
afterEach(async () => {
  await client?.close();
  await bmc?.stop();
  client = undefined;
  bmc = undefined;
});

async function serve(): Promise<RedfishClient> {
  bmc = await FakeBmc.start((request, response) => {
    const body = RESOURCES[request.url.split("?")[0] ?? ""];
    return body ? sendJson(response, 200, body) : sendJson(response, 404, redfishError("Base.1.8.NotFound"));
  });
  client = new RedfishClient({ address: bmc.url, auth: "none", retry: { retries: 0 } });
  return client;
}

describe("explore's system interfaces", () => {
  it("marks VLAN interfaces Virtual, and a virtual one is not missing a UEFI device path", async () => {
    const report = await new RedfishStandard(await serve(), { logger: silentLogger }).explore();
    expect(report.systems[0]?.ethernetInterfaces.map((i) => [i.id, i.mac, i.interfaceType])).toEqual([
      ["NIC1", MAC, "Physical"],
      ["NIC1-VLAN100", MAC, "Virtual"],
      ["NIC1-VLAN200", MAC, "Virtual"],
    ]);
    expect(report.diagnostics.filter((d) => d.path.startsWith(E))).toEqual([]);
  });

  it("are what the driver's systemEthernetInterfaces() returns, so an override shows in the report", async () => {
    class HidesVlans extends RedfishStandard {
      override async systemEthernetInterfaces(): Promise<EthernetInterfaceInfo[]> {
        const all = await super.systemEthernetInterfaces();
        return [
          ...all.filter((nic) => nic.interfaceType !== "Virtual"),
          {
            id: "OemPort",
            mac: undefined,
            uefiDevicePath: undefined,
            enabled: true,
            linkStatus: undefined,
            ipv4Addresses: [],
          },
        ];
      }
    }
    const report = await new HidesVlans(await serve(), { logger: silentLogger }).explore();
    expect(report.systems[0]?.ethernetInterfaces.map((i) => i.id)).toEqual(["NIC1", "OemPort"]);
    // What the driver returns is checked like a resource read directly: a NIC without a MAC is an error.
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", path: `${E}/OemPort`, field: "MACAddress" }),
    );
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "warning", path: `${E}/OemPort`, field: "UefiDevicePath" }),
    );
  });

  it("that cannot be read become a diagnostic on the collection, not a failed report", async () => {
    class Broken extends RedfishStandard {
      override async systemEthernetInterfaces(): Promise<EthernetInterfaceInfo[]> {
        throw new Error("interfaces unreadable");
      }
    }
    const report = await new Broken(await serve(), { logger: silentLogger }).explore();
    expect(report.systems[0]?.ethernetInterfaces).toEqual([]);
    expect(report.diagnostics).toContainEqual({
      severity: "warning",
      path: E,
      message: "interfaces unreadable",
      unread: true,
    });
  });
});
