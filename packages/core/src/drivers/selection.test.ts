import { describe, expect, it } from "vitest";
import type { ServiceProbe } from "../redfish/index.js";
import { redfishStandardDriver } from "../standard/definition.js";
import { RedfishStandard } from "../standard/redfishStandard.js";
import type { BmcDriverDefinition } from "./bmcDriver.js";
import type { HardwareIdentity } from "./hardwareIdentity.js";
import { selectDriver, wantsHardwareIdentity } from "./selection.js";

const probe = (vendor: string): ServiceProbe => ({
  serviceRoot: { Vendor: vendor, RedfishVersion: "1.17.0", Systems: { "@odata.id": "/redfish/v1/Systems" } },
  vendor,
  product: undefined,
  oemKeys: [],
  metadata: undefined,
  systemIds: ["1"],
  managerIds: ["1"],
  chassisIds: ["1"],
  diagnostics: [],
});

const driver = (name: string, detect: BmcDriverDefinition["detect"]): BmcDriverDefinition => ({
  name,
  vendor: name,
  capabilities: [],
  detect,
  create: (client, context) => new RedfishStandard(client, context),
});

const dell = driver("dell", (root) => (root.Vendor === "Dell" ? 90 : 0));
const broken = driver("broken", () => {
  throw new Error("bug in a plugin");
});
const greedy = driver("greedy", () => 500);

describe("selectDriver", () => {
  it("picks the highest score and lists every candidate", () => {
    const selection = selectDriver([redfishStandardDriver, dell, broken], probe("Dell"), {
      fallback: redfishStandardDriver,
    });
    expect(selection.driver.name).toBe("dell");
    expect(selection.candidates).toEqual([
      { name: "dell", score: 90 },
      { name: "redfish-standard", score: 1 },
      { name: "broken", score: 0 },
    ]);
    expect(selection.pinned).toBe(false);
  });

  it("falls back to the standard driver when no vendor matches", () => {
    expect(selectDriver([dell], probe("HPE"), { fallback: redfishStandardDriver }).driver.name).toBe(
      "redfish-standard",
    );
  });

  it("clamps scores to 0..100", () => {
    expect(selectDriver([greedy], probe("X"), { fallback: redfishStandardDriver }).candidates[0]).toEqual({
      name: "greedy",
      score: 100,
    });
  });

  it("honours a pinned driver even when another scores higher, and rejects an unknown pin", () => {
    const pinned = selectDriver([dell, greedy], probe("Dell"), {
      fallback: redfishStandardDriver,
      pinned: "redfish-standard",
    });
    expect(pinned).toMatchObject({ driver: { name: "redfish-standard" }, pinned: true });
    expect(() =>
      selectDriver([dell], probe("Dell"), { fallback: redfishStandardDriver, pinned: "hpe" }),
    ).toThrow(/driver "hpe" is not registered \(known: dell, redfish-standard\)/);
  });
});

describe("selectDriver's second step: refine on the hardware's make and model", () => {
  const contoso: BmcDriverDefinition = {
    ...driver("contoso", () => 0),
    refine: (hardware) => (hardware.system?.manufacturer === "Contoso" ? 80 : undefined),
  };
  const vetoing: BmcDriverDefinition = {
    ...driver("vetoing", (root) => (root.Vendor === "Contoso" ? 90 : 0)),
    refine: (hardware) => (hardware.manager?.model === "Not ours" ? 0 : undefined),
  };
  const throwing: BmcDriverDefinition = {
    ...driver("throwing", () => 50),
    refine: () => {
      throw new Error("bug in a refine");
    },
  };
  const system = (manufacturer: string): HardwareIdentity => ({ system: { id: "1", manufacturer } });

  it.each<[string, HardwareIdentity | undefined, string, Record<string, number>]>([
    ["no second step: detect alone", undefined, "throwing", { contoso: 0, throwing: 50 }],
    ["a refine's number replaces its detect score", system("Contoso"), "contoso", { contoso: 80 }],
    ["undefined keeps the detect score", system("Fabrikam"), "redfish-standard", { contoso: 0 }],
    [
      "a refine can veto what the root said",
      { manager: { id: "1", model: "Not ours" } },
      "redfish-standard",
      {
        vetoing: 0,
      },
    ],
    ["a throwing refine scores 0", system("Contoso"), "contoso", { throwing: 0 }],
  ])("%s", (_, hardware, chosen, scores) => {
    const root = hardware?.manager ? "Contoso" : "";
    const selection = selectDriver([redfishStandardDriver, contoso, vetoing, throwing], probe(root), {
      fallback: redfishStandardDriver,
      ...(hardware ? { hardware } : {}),
    });
    const byName = Object.fromEntries(selection.candidates.map((c) => [c.name, c.score]));
    expect(byName).toMatchObject(scores);
    expect(selection.driver.name).toBe(chosen);
  });

  it("asks for the hardware only when a candidate refines and no driver is pinned", () => {
    expect(wantsHardwareIdentity([dell], {})).toBe(false);
    expect(wantsHardwareIdentity([dell, contoso], {})).toBe(true);
    expect(wantsHardwareIdentity([dell, contoso], { pinned: "dell" })).toBe(false);
  });
});
