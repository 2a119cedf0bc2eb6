import {
  type BmcDriverDefinition,
  type ConnectedBmc,
  collectRegistrations,
  connectBmc,
  type ExplorationReport,
  normalizeMac,
  redfishStandardDriver,
} from "@racksmith/core";
import { BmcConnectionPool, RedfishClient } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";
import {
  ALL_HOST_MODELS,
  type Fleet,
  generateScenario,
  startFleet,
  type VirtualBmc,
} from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Every vendor driver loaded together, as an operator with all of them in racksmith.yaml would have.
const drivers: BmcDriverDefinition[] = [];
for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
  drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
}

// One fleet for the file: each host model twice with its DPU, one host's DPU in NIC mode.
let fleet: Fleet;
const pool = new BmcConnectionPool();
const connected = new Map<string, ConnectedBmc>();

beforeAll(async () => {
  fleet = await startFleet({
    scenario: generateScenario({
      hosts: 16,
      seed: 3,
      models: ALL_HOST_MODELS,
      anomalies: { nicModeDpu: 1 },
    }),
  });
  for (const bmc of fleet.bmcs) {
    const client = new RedfishClient({
      address: `https://${bmc.address}`,
      connectVia: fleet.url,
      credentials: bmc.credentials,
      pool,
    });
    connected.set(bmc.id, await connectBmc(client, { drivers, fallback: redfishStandardDriver }));
  }
});

afterAll(async () => {
  await pool.closeAll();
  await fleet.stop();
});

function driverOf(bmc: VirtualBmc): ConnectedBmc {
  const found = connected.get(bmc.id);
  if (!found) throw new Error(`${bmc.id} is not connected`);
  return found;
}

const explored = new Map<string, Promise<ExplorationReport>>();
function reportOf(bmc: VirtualBmc): Promise<ExplorationReport> {
  let report = explored.get(bmc.id);
  if (!report) {
    report = driverOf(bmc).driver.explore();
    explored.set(bmc.id, report);
  }
  return report;
}

describe("drivers on virtual BMCs", () => {
  it("select each BMC's vendor driver, with every driver loaded, through the fleet's one listener", () => {
    const selected = fleet.bmcs.map((bmc) => [bmc.id, bmc.model, driverOf(bmc).selection.driver.name]);
    expect(selected).toEqual(fleet.bmcs.map((bmc) => [bmc.id, bmc.model, bmc.vendor]));
  });

  it("read each DPU's mode: NIC mode on the anomaly's DPU, DPU mode elsewhere", async () => {
    const nicHost = fleet.anomalies.find((anomaly) => anomaly.kind === "nicModeDpu")?.host;
    const dpus = fleet.bmcs.filter((bmc) => bmc.kind === "dpu");
    const modes = await Promise.all(dpus.map((dpu) => driverOf(dpu).driver.nicMode()));
    expect(modes).toEqual(dpus.map((dpu) => (dpu.plan.host === nicHost ? "nic" : "dpu")));
  });

  it("pair every host with its DPU: BlueField serial, host-facing MAC and BMC MAC as the scenario planned", async () => {
    for (const dpu of fleet.bmcs.filter((bmc) => bmc.kind === "dpu")) {
      const host = fleet.bmc(dpu.plan.host ?? "");
      if (!host) throw new Error(`${dpu.id} has no host`);
      const [dpuReport, hostReport, baseMac, bootOptions] = await Promise.all([
        reportOf(dpu),
        reportOf(host),
        driverOf(dpu).driver.baseMac(),
        driverOf(host).driver.bootOptions(),
      ]);
      const [dpuSystem] = dpuReport.systems;
      const [hostSystem] = hostReport.systems;
      expect(dpuSystem?.serialNumber).toBe(dpu.serial);
      expect(dpuSystem?.baseMac ?? baseMac).toBe(baseMac);
      expect(baseMac).toBe(normalizeMac(host.plan.dpuMacs[0]));

      // The host lists the card under the DPU's serial (PCIe devices, else its chassis network adapters)…
      const cardSerials = [
        ...(hostSystem?.pcieDevices ?? []).map((device) => device.serialNumber),
        ...hostReport.chassis.flatMap((chassis) =>
          chassis.networkAdapters.map((adapter) => adapter.serialNumber),
        ),
      ];
      expect(cardSerials, `${host.id} (${host.model})`).toContain(dpu.serial);
      // …and shows the DPU's base MAC on its NIC or boot options.
      const hostMacs = [
        ...(hostSystem?.ethernetInterfaces ?? []).map((nic) => nic.mac),
        ...bootOptions.options.map((option) => option.mac),
      ];
      expect(hostMacs, `${host.id} (${host.model})`).toContain(baseMac);

      for (const [bmc, report] of [
        [host, hostReport],
        [dpu, dpuReport],
      ] as const) {
        expect(
          report.managers.flatMap((manager) => manager.ethernetInterfaces.map((nic) => nic.mac)),
        ).toContain(bmc.mac);
      }
      expect(hostSystem?.serialNumber).toBe(host.serial);
    }
  });
});
