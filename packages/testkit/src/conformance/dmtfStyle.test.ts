import {
  type BmcDriverDefinition,
  type EthernetInterfaceInfo,
  RedfishStandard,
  redfishStandardDriver,
} from "@racksmith/core";
import type { ComputerSystem } from "@racksmith/core/redfish";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useDriverMockup } from "../driverMockup/index.js";
import { DMTF_STYLE_MOCKUP } from "../index.js";
import { conformanceFailures, conformanceStatuses, expectedConformanceStatuses } from "./reportSummary.js";
import { runConformance } from "./runConformance.js";

const S = "/redfish/v1/Systems/437XR1138R2";
const NIC1_MAC = "02:C0:FF:EE:00:01";

describe("the standard driver on a plain DMTF-style BMC", () => {
  it("passes conformance on a mockup with a VLAN interface and MAC-less boot options (with bootOrderDpuFirst reported as not supported)", async () => {
    const report = await runConformance({
      driver: redfishStandardDriver,
      mockup: DMTF_STYLE_MOCKUP,
      // The standard driver's machine setup applies an operator's BIOS profile (it has no vendor defaults).
      machineSetup: { biosProfile: { ProcHyperthreading: "Disabled" } },
    });
    expect(conformanceFailures(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(conformanceStatuses(report)).toEqual(
      expectedConformanceStatuses(["bootOrderDpuFirst", "acPowerCycle", "lockdown", "tpmClear", "dpu"]),
    );
    const dpuFirst = report.results.find((r) => r.capability === "bootOrderDpuFirst");
    expect(dpuFirst).toMatchObject({
      declared: true,
      status: "not_supported",
      message:
        "boot order DPU first is not supported: no boot option names a MAC; cannot put the DPU first by MAC",
    });
    // The VLAN interfaces share NIC1's MAC; they are reported, not counted as duplicate NICs.
    expect(report.results.find((r) => r.capability === "inventory")?.checks[0]).toBe(
      "1 manager + 4 system interfaces (2 virtual), physical MACs unique",
    );
    // The root names no Vendor: the report says who made the system instead of "vendor undefined".
    expect(report.results.find((r) => r.capability === "explore")?.checks).toEqual([
      "manufacturer Contoso (no vendor in the service root), serial 437XR1138R2, 3 physical MACs, 1 chassis",
    ]);
  });

  it("passes a driver that recognises the hardware by its system's Manufacturer (the root names no Vendor)", async () => {
    const contoso: BmcDriverDefinition = {
      ...redfishStandardDriver,
      name: "contoso",
      vendor: "Contoso",
      detect: () => 0,
      refine: (hardware) => (hardware.system?.manufacturer === "Contoso" ? 80 : undefined),
    };
    const report = await runConformance({
      driver: contoso,
      mockup: DMTF_STYLE_MOCKUP,
      machineSetup: { biosProfile: { ProcHyperthreading: "Disabled" } },
    });
    expect(conformanceFailures(report)).toEqual([]);
    expect(report.results.find((r) => r.capability === "detect")).toMatchObject({
      status: "pass",
      checks: ["detect score 80"],
    });

    // Without the second step, the same driver does not recognise its mockup.
    const rootOnly = await runConformance({
      driver: { ...contoso, refine: undefined },
      mockup: DMTF_STYLE_MOCKUP,
      only: ["detect"],
    });
    expect(rootOnly.results[0]).toMatchObject({
      status: "fail",
      message: "contoso does not recognise its own mockup (score 0)",
    });
  });

  it("still fails a driver whose physical interfaces repeat a MAC", async () => {
    class Duplicating extends RedfishStandard {
      override async systemEthernetInterfaces(): Promise<EthernetInterfaceInfo[]> {
        const all = await super.systemEthernetInterfaces();
        return all.map((nic) => (nic.id === "NIC2" ? { ...nic, mac: NIC1_MAC } : nic));
      }
    }
    const duplicating: BmcDriverDefinition = {
      ...redfishStandardDriver,
      name: "duplicating",
      create: (client, context) => new Duplicating(client, context),
    };
    const report = await runConformance({
      driver: duplicating,
      mockup: DMTF_STYLE_MOCKUP,
      only: ["explore", "inventory"],
    });
    // explore() reports what the driver's systemEthernetInterfaces() returns, override included.
    expect(conformanceFailures(report)).toEqual([
      `explore: duplicate physical MACs in the report among 02:C0:FF:EE:00:F0, ${NIC1_MAC}, ${NIC1_MAC}`,
      `inventory: duplicate physical MACs among ${NIC1_MAC}, ${NIC1_MAC}, 02:C0:FF:EE:00:F0`,
    ]);
  });
});

describe("the dmtf-style mockup under the standard driver", () => {
  class OemReset extends RedfishStandard {
    async contosoReset(): Promise<string | undefined> {
      const system = await this.client.get<ComputerSystem>(await this.systemPath());
      const target = this.actionTarget(system, "#Contoso.Reset");
      if (target) await this.client.post(target, {});
      return target;
    }
  }
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    {
      driver: (client, context) => new OemReset(client, context),
      mockup: DMTF_STYLE_MOCKUP,
    },
  );

  it("is served strictly: no Vendor, an empty Oem, DMTF ids, VLAN interfaces typed in the report", async () => {
    expect(bmc.probe.vendor).toBeUndefined();
    expect(bmc.probe.serviceRoot.Oem).toEqual({});
    // Strict, as the conformance suite serves it: a PATCH of a property the system lacks is refused.
    await expect(bmc.client.patch(S, { NoSuchProperty: 1 })).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringMatching(/PropertyUnknown/),
    });
    const report = await bmc.driver.explore();
    expect(report.systems.map((s) => [s.id, s.manufacturer, s.model])).toEqual([
      ["437XR1138R2", "Contoso", "3500"],
    ]);
    expect(report.managers.map((m) => m.id)).toEqual(["BMC"]);
    expect(report.chassis.map((c) => c.id)).toEqual(["1U"]);
    expect(report.systems[0]?.ethernetInterfaces.map((i) => [i.id, i.mac, i.interfaceType])).toEqual([
      ["NIC1", NIC1_MAC, "Physical"],
      ["NIC1-VLAN100", NIC1_MAC, "Virtual"],
      ["NIC1-VLAN200", NIC1_MAC, "Virtual"],
      ["NIC2", "02:C0:FF:EE:00:02", "Physical"],
    ]);
    expect(report.diagnostics.filter((d) => d.severity === "error" || d.unread)).toEqual([]);
    const { options } = await bmc.driver.bootOptions();
    expect(options.map((o) => o.mac)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("lets a driver find and invoke the system's OEM action under Actions.Oem", async () => {
    await expect(bmc.driver.contosoReset()).resolves.toBe(`${S}/Oem/Contoso/Actions/Contoso.Reset`);
    expect(bmc.server.actions.map((a) => [a.path, a.action])).toEqual([
      [`${S}/Oem/Contoso/Actions/Contoso.Reset`, "#Contoso.Reset"],
    ]);
  });
});
