import { describe, expect, it } from "vitest";
import { MockupCatalog } from "../catalog/index.js";
import { FleetScenarioError } from "../errors.js";
import { type FleetScenario, generateScenario } from "../scenario/index.js";
import { expectedMachinesCsv } from "./expectedMachinesCsv.js";
import { planFleet } from "./planFleet.js";

// One catalog for the file: each mockup is opened and scanned once.
const catalog = new MockupCatalog({ baseDir: process.cwd() });
const plan = (scenario: FleetScenario) => planFleet(scenario, { catalog });

describe("planFleet", () => {
  it("is deterministic for a seed, and another seed plans other identities", async () => {
    const scenario = generateScenario({ hosts: 8, seed: 42, anomalies: { wrongSerial: 1, missingDpu: 1 } });
    const [a, b, c] = await Promise.all([plan(scenario), plan(scenario), plan({ ...scenario, seed: 43 })]);
    const identities = (p: typeof a) =>
      p.bmcs.map((bmc) => [bmc.id, bmc.mac, bmc.serial, bmc.address, bmc.anomalies]);
    expect(identities(b)).toEqual(identities(a));
    expect(b.expectedMachines).toEqual(a.expectedMachines);
    expect(identities(c)).not.toEqual(identities(a));
  });

  it("gives every BMC a unique MAC, serial and address, and pairs each host's card with its DPU", async () => {
    const fleet = await plan(generateScenario({ hosts: 200 }));
    const hosts = fleet.bmcs.filter((bmc) => bmc.kind === "host");
    const dpus = fleet.bmcs.filter((bmc) => bmc.kind === "dpu");
    expect([hosts.length, dpus.length]).toEqual([200, 200]);
    for (const key of ["mac", "serial", "address"] as const) {
      expect(new Set(fleet.bmcs.map((bmc) => bmc[key])).size).toBe(400);
    }
    for (const host of hosts) {
      const [dpu] = host.dpus.map((id) => dpus.find((candidate) => candidate.id === id));
      expect(dpu?.host).toBe(host.id);
      expect(host.dpuSerials).toEqual([dpu?.serial]);
      expect(host.dpuMacs).toEqual(dpu?.dpuMacs);
    }
    expect(fleet.expectedMachines.map((machine) => machine.bmcMac)).toEqual(hosts.map((host) => host.mac));
    expect(fleet.discoveries.map((discovery) => discovery.mac)).toEqual(fleet.bmcs.map((bmc) => bmc.mac));
    // No serial, MAC or UUID is shared between two machines (a host shares its card's with its own DPU).
    const machinesOf = new Map<string, Set<string>>();
    for (const bmc of fleet.bmcs) {
      for (const value of bmc.identity) {
        machinesOf.set(value, (machinesOf.get(value) ?? new Set()).add(bmc.host ?? bmc.id));
      }
    }
    expect([...machinesOf.values()].filter((machines) => machines.size > 1)).toEqual([]);
  });

  it("plans each anomaly on its own host, as the scenario says", async () => {
    const fleet = await plan(
      generateScenario({
        hosts: 12,
        anomalies: {
          wrongSerial: 2,
          nicModeDpu: 1,
          missingDpu: 1,
          poweredOff: 1,
          passwordChangeRequired: { count: 1, target: "dpu" },
          unauthorized: 1,
          unreachable: 1,
          slow: { count: 1, latencyMs: 500 },
          malformedJson: 1,
        },
      }),
    );
    expect(new Set(fleet.anomalies.map((anomaly) => anomaly.host)).size).toBe(10);
    const of = (kind: string) => fleet.anomalies.filter((anomaly) => anomaly.kind === kind);
    const bmc = (id: string | undefined) => fleet.bmcs.find((candidate) => candidate.id === id);
    const machine = (id: string | undefined) => fleet.expectedMachines.find((m) => m.bmcMac === bmc(id)?.mac);

    for (const wrong of of("wrongSerial")) {
      expect(machine(wrong.host)?.chassisSerial).not.toBe(bmc(wrong.host)?.chassisSerial);
    }
    const missing = bmc(of("missingDpu")[0]?.host);
    expect(missing?.dpus).toEqual([]);
    expect(fleet.bmcs.some((candidate) => candidate.serial === missing?.dpuSerials[0])).toBe(false);
    expect(machine(missing?.id)?.dpuMode).toBe("dpu");
    expect(bmc(bmc(of("nicModeDpu")[0]?.host)?.dpus[0])?.nicMode).toBe(true);
    expect(bmc(of("poweredOff")[0]?.bmc)?.poweredOff).toBe(true);
    const pcr = of("passwordChangeRequired")[0];
    expect(bmc(pcr?.bmc)?.kind).toBe("dpu");
    expect(bmc(pcr?.bmc)?.passwordChangeRequired).toBe(true);
    const unauthorized = bmc(of("unauthorized")[0]?.bmc);
    expect(unauthorized?.credentials.password).not.toBe(unauthorized?.factoryCredentials.password);
    expect(bmc(of("unreachable")[0]?.bmc)?.faults).toEqual([{ path: "/**", reset: true }]);
    expect(bmc(of("slow")[0]?.bmc)?.faults).toEqual([{ path: "/**", latencyMs: 500 }]);
    expect(bmc(of("malformedJson")[0]?.bmc)?.faults).toEqual([{ path: "/redfish/v1/**", malformed: true }]);
    const clean = fleet.bmcs.filter((candidate) => candidate.anomalies.length === 0);
    expect(
      clean.every(
        (candidate) => !candidate.poweredOff && !candidate.nicMode && candidate.faults.length === 0,
      ),
    ).toBe(true);
  });

  it.each<[string, FleetScenario, RegExp]>([
    [
      "more anomalies than hosts",
      generateScenario({ hosts: 2, anomalies: { wrongSerial: 2, poweredOff: 1 } }),
      /anomalies\.poweredOff: needs 1 host but only 0 are left/,
    ],
    [
      "DPU anomalies on hosts without DPUs",
      generateScenario({ hosts: 3, withDpus: false, anomalies: { missingDpu: 1 } }),
      /anomalies\.missingDpu: needs 1 host with a DPU but only 0/,
    ],
    [
      "a host-only anomaly on a DPU",
      generateScenario({ hosts: 3, anomalies: { wrongSerial: { count: 1, target: "dpu" } } }),
      /anomalies\.wrongSerial\.target: applies to hosts only/,
    ],
    [
      "more DPUs than BlueField cards",
      { hosts: [{ vendor: "dell", model: "poweredge-r750", dpu: { model: "bluefield-2", count: 2 } }] },
      /hosts\[0\]\.dpu\.count: is 2 but poweredge-r750 shows 1 BlueField card/,
    ],
    [
      "a host mockup as a DPU",
      {
        hosts: [
          { vendor: "dell", model: "poweredge-r750", dpu: { vendor: "dell", model: "poweredge-xe9680" } },
        ],
      },
      /hosts\[0\]\.dpu\.model: .* is not a BlueField DPU mockup/,
    ],
    [
      "an unknown model",
      { hosts: [{ vendor: "dell", model: "poweredge-r760" }] },
      /hosts\[0\]\.model: @racksmith\/driver-dell has no mockup "poweredge-r760" \(it has poweredge-r750, poweredge-xe9680\)/,
    ],
    [
      "an unknown vendor package",
      { hosts: [{ vendor: "acme", model: "x1" }] },
      /hosts\[0\]\.vendor: package @racksmith\/driver-acme not found/,
    ],
  ])("refuses %s, naming the key", async (_name, scenario, expected) => {
    await expect(plan(scenario)).rejects.toThrow(expected);
  });

  it("refuses anomalies it cannot place with a scenario error", async () => {
    await expect(plan(generateScenario({ hosts: 1, anomalies: { slow: 2 } }))).rejects.toBeInstanceOf(
      FleetScenarioError,
    );
  });

  it("writes expected machines as CSV with the inventory's columns", async () => {
    const fleet = await plan({
      seed: 1,
      hosts: [
        {
          vendor: "dell",
          model: "poweredge-r750",
          dpu: { model: "bluefield-2" },
          labels: { rack: "r1", row: "a,b" },
          skuId: "sku-1",
          pinDriver: true,
        },
      ],
    });
    const [header, row] = expectedMachinesCsv(fleet.expectedMachines).trimEnd().split("\n");
    expect(header).toBe(
      "bmcMac,bmcAddress,factoryUsername,factoryPassword,chassisSerial,fallbackDpuSerials,dpuMode,driver,labels,skuId",
    );
    const machine = fleet.expectedMachines[0];
    expect(row).toBe(
      `${machine?.bmcMac},,root,calvin,${machine?.chassisSerial},,dpu,dell,"rack=r1;row=a,b",sku-1`,
    );
  });
});
