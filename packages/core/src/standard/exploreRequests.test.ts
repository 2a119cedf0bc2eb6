import { afterEach, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import type { ExplorationReport } from "../drivers/explorationReport.js";
import { silentLogger } from "../logging/index.js";
import { RedfishClient } from "../redfish/index.js";
import { RedfishStandard } from "./redfishStandard.js";

const S = "/redfish/v1/Systems/1";
const M = "/redfish/v1/Managers/bmc";
const C = "/redfish/v1/Chassis/1";
const F = "/redfish/v1/UpdateService/FirmwareInventory";
const link = (path: string) => ({ "@odata.id": path });
const collection = (...paths: string[]) => ({ Members: paths.map(link) });

function resources(expand: boolean): Record<string, Record<string, unknown>> {
  return {
    "/redfish/v1": {
      "@odata.id": "/redfish/v1",
      RedfishVersion: "1.15.0",
      Vendor: "Contoso",
      Systems: link("/redfish/v1/Systems"),
      Managers: link("/redfish/v1/Managers"),
      Chassis: link("/redfish/v1/Chassis"),
      UpdateService: link("/redfish/v1/UpdateService"),
      ...(expand ? { ProtocolFeaturesSupported: { ExpandQuery: { Levels: true, MaxLevels: 1 } } } : {}),
    },
    "/redfish/v1/Systems": collection(S),
    "/redfish/v1/Managers": collection(M),
    "/redfish/v1/Chassis": collection(C),
    [S]: {
      "@odata.id": S,
      Id: "1",
      SerialNumber: "SN1",
      UUID: "0d7a7e2c-0000-4000-8000-000000000001",
      PowerState: "On",
      EthernetInterfaces: link(`${S}/EthernetInterfaces`),
      SecureBoot: link(`${S}/SecureBoot`),
      PCIeDevices: [link(`${C}/PCIeDevices/gpu`)],
      Links: { Chassis: [link(C)] },
    },
    [`${S}/EthernetInterfaces`]: collection(`${S}/EthernetInterfaces/nic1`, `${S}/EthernetInterfaces/nic2`),
    [`${S}/EthernetInterfaces/nic1`]: { Id: "nic1", MACAddress: "02:00:00:00:00:01", UefiDevicePath: "x" },
    [`${S}/EthernetInterfaces/nic2`]: { Id: "nic2", MACAddress: "02:00:00:00:00:02", UefiDevicePath: "y" },
    [`${S}/SecureBoot`]: { SecureBootEnable: true, SecureBootCurrentBoot: "Enabled" },
    [M]: {
      "@odata.id": M,
      Id: "bmc",
      FirmwareVersion: "1.0",
      EthernetInterfaces: link(`${M}/EthernetInterfaces`),
    },
    [`${M}/EthernetInterfaces`]: collection(`${M}/EthernetInterfaces/eth0`),
    [`${M}/EthernetInterfaces/eth0`]: { Id: "eth0", MACAddress: "02:00:00:00:00:0A" },
    [C]: {
      "@odata.id": C,
      Id: "1",
      ChassisType: "RackMount",
      SerialNumber: "CSN1",
      NetworkAdapters: link(`${C}/NetworkAdapters`),
      PCIeDevices: link(`${C}/PCIeDevices`),
      Sensors: link(`${C}/Sensors`),
      Links: { ComputerSystems: [link(S)] },
    },
    [`${C}/Sensors`]: collection(`${C}/Sensors/inlet`),
    [`${C}/Sensors/inlet`]: {
      "@odata.id": `${C}/Sensors/inlet`,
      Id: "inlet",
      Name: "Inlet Temp",
      ReadingType: "Temperature",
      Reading: 21,
      ReadingUnits: "Cel",
    },
    [`${C}/NetworkAdapters`]: collection(`${C}/NetworkAdapters/nic`),
    [`${C}/NetworkAdapters/nic`]: { Id: "nic", Manufacturer: "Contoso", Model: "X1" },
    [`${C}/PCIeDevices`]: collection(`${C}/PCIeDevices/gpu`, `${C}/PCIeDevices/nic`),
    [`${C}/PCIeDevices/gpu`]: { Id: "gpu", Name: "GPU", Manufacturer: "Contoso" },
    [`${C}/PCIeDevices/nic`]: { Id: "nic", Name: "NIC", Manufacturer: "Contoso" },
    "/redfish/v1/UpdateService": { FirmwareInventory: link(F) },
    [F]: collection(`${F}/bios`, `${F}/bmc`),
    [`${F}/bios`]: { Id: "bios", Version: "2.1" },
    [`${F}/bmc`]: { Id: "bmc", Version: "1.0" },
  };
}

/** Serves `resources`, expanding `$expand=.($levels=1)` collections when the service root says it can. */
async function serve(expand: boolean): Promise<FakeBmc> {
  const all = resources(expand);
  return FakeBmc.start((request, response) => {
    const url = new URL(request.url, "http://bmc");
    const body = all[url.pathname];
    if (!body) return sendJson(response, 404, {});
    if (!url.searchParams.has("$expand") || !Array.isArray(body.Members))
      return sendJson(response, 200, body);
    const members = (body.Members as Array<{ "@odata.id": string }>).map((m) => ({
      ...m,
      ...all[m["@odata.id"]],
    }));
    return sendJson(response, 200, { ...body, Members: members });
  });
}

const running: FakeBmc[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((bmc) => bmc.stop()));
});

async function explore(expand: boolean): Promise<{ report: ExplorationReport; gets: string[] }> {
  const bmc = await serve(expand);
  running.push(bmc);
  const client = new RedfishClient({ address: bmc.url });
  try {
    const report = await new RedfishStandard(client, { logger: silentLogger }).explore();
    return { report, gets: bmc.requests.map((r) => r.url) };
  } finally {
    await client.close();
  }
}

const content = ({ exploredAt: _at, durationMs: _ms, ...rest }: ExplorationReport) => rest;

describe("an exploration's requests", () => {
  it("read each resource once, the system too, however many parts of the report start from it", async () => {
    const { report, gets } = await explore(false);
    const repeated = gets.filter((path, i) => gets.indexOf(path) !== i);
    expect(repeated).toEqual([]);
    expect(gets).toContain(`${C}/PCIeDevices/nic`);
    expect(report.systems[0]?.pcieDevices.map((d) => d.id).sort()).toEqual(["gpu", "nic"]);
    expect(report.secureBootStatus).toMatchObject({ enabled: true });
  });

  it("take the members of the collections it reads from the collection when the BMC expands, same report", async () => {
    const plain = await explore(false);
    const expanded = await explore(true);
    const members = expanded.gets.filter((path) =>
      /\/(EthernetInterfaces|NetworkAdapters|PCIeDevices|FirmwareInventory)\/[^/?]+$/.test(path),
    );
    expect(members).toEqual([]);
    expect(expanded.gets).toContain(`${C}/PCIeDevices?$expand=.($levels=1)`);
    expect(expanded.gets.length).toBeLessThan(plain.gets.length);
    expect(content(expanded.report)).toEqual(content(plain.report));
  });
});

describe("a sensor poll's requests", () => {
  /** The requests of `sensors()` by a driver given the service description another contact made. */
  async function poll(expand: boolean) {
    const bmc = await serve(expand);
    running.push(bmc);
    const first = new RedfishClient({ address: bmc.url });
    const probe = await new RedfishStandard(first, { logger: silentLogger }).probe();
    await first.close();
    const before = bmc.requests.length;
    const client = new RedfishClient({ address: bmc.url });
    try {
      const readings = await new RedfishStandard(client, { logger: silentLogger, probe }).sensors();
      return { readings, gets: bmc.requests.slice(before).map((r) => r.url) };
    } finally {
      await client.close();
    }
  }

  it("are one per collection when the BMC expands and the service is described already, same readings", async () => {
    const plain = await poll(false);
    const expanded = await poll(true);
    expect(plain.gets).toEqual(["/redfish/v1/Chassis", C, `${C}/Sensors`, `${C}/Sensors/inlet`]);
    expect(expanded.gets).toEqual([
      "/redfish/v1/Chassis?$expand=.($levels=1)",
      `${C}/Sensors?$expand=.($levels=1)`,
    ]);
    expect(expanded.readings).toEqual(plain.readings);
    expect(expanded.readings.map((r) => [r.id, r.reading])).toEqual([["inlet", 21]]);
  });
});
