import { describe, expect, it } from "vitest";
import type { ServiceProbe } from "../redfish/index.js";
import { redfishStandardDriver } from "../standard/definition.js";
import { RedfishStandard } from "../standard/redfishStandard.js";
import type { BmcDriverDefinition } from "./bmcDriver.js";
import { selectDriver } from "./selection.js";

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
