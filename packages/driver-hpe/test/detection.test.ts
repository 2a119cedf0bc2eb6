import { readFileSync } from "node:fs";
import { BMC_CAPABILITIES, collectRegistrations, redfishStandardDriver, selectDriver } from "@racksmith/core";
import type { ServiceRoot } from "@racksmith/core/redfish";
import { presentSharedVendors, sharedMockup } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import plugin, { detectHpe, hpeDriverDefinition } from "../src/index.js";
import { MOCKUPS } from "./support/mockups.js";
import { mockupRoot, OTHER_VENDOR_ROOTS, probeOf } from "./support/serviceRoots.js";

const sharedHpe = presentSharedVendors("detection of the real HPE capture", ["hpe"]).length
  ? sharedMockup("hpe")
  : undefined;

function scores(root: ServiceRoot) {
  const probe = probeOf(root);
  const selection = selectDriver([hpeDriverDefinition], probe, { fallback: redfishStandardDriver });
  return {
    hpe: hpeDriverDefinition.detect(root, probe),
    standard: redfishStandardDriver.detect(root, probe),
    selected: selection.driver.name,
  };
}

describe("detect", () => {
  it.each(Object.entries(MOCKUPS))("claims its own %s mockup with iLO certainty", (_, mockup) => {
    expect(scores(mockupRoot(mockup))).toEqual({ hpe: 95, standard: 1, selected: "hpe" });
  });

  it.skipIf(!sharedHpe)("claims the real iLO 5 capture above the standard driver", () => {
    expect(scores(mockupRoot(sharedHpe ?? ""))).toEqual({ hpe: 95, standard: 1, selected: "hpe" });
  });

  it.each(Object.entries(OTHER_VENDOR_ROOTS))("does not claim a %s root", (_, root) => {
    const result = scores(root);
    expect(result.hpe).toBe(0);
    expect(result.selected).toBe("redfish-standard");
  });

  it("grades its confidence by how clearly the root says iLO", () => {
    const ilo6 = { Vendor: "HPE", Oem: { Hpe: { Moniker: { PRODGEN: "iLO 6" } } } };
    const extensionWithoutIlo = { Vendor: "HPE", Oem: { Hpe: { Manager: [{ ManagerType: "BMC" }] } } };
    const vendorOnly = { Vendor: "HPE", Product: "Cray XD670" };
    const oemWithoutVendor = { Oem: { Hpe: { Manager: [{ ManagerType: "iLO 5" }] } } };
    expect([ilo6, extensionWithoutIlo, vendorOnly, oemWithoutVendor].map((root) => detectHpe(root))).toEqual([
      95, 85, 20, 95,
    ]);
    // Even the weakest claim beats the standard driver, and Vendor wins over a foreign first Oem key.
    expect(detectHpe(vendorOnly)).toBeGreaterThan(
      redfishStandardDriver.detect(vendorOnly, probeOf(vendorOnly)),
    );
    expect(detectHpe({ Vendor: "Dell", Oem: { Hpe: {} } })).toBe(0);
    expect(detectHpe({ Vendor: " hpe ", Oem: { Hpe: { Moniker: { BMC: "iLO" } } } })).toBe(95);
  });
});

describe("the plugin", () => {
  it("registers the hpe driver under its package name and version", async () => {
    const registered = (await collectRegistrations(plugin)).bmcDrivers;
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(plugin).toMatchObject({ name: "@racksmith/driver-hpe", apiVersion: 1, version });
    expect(registered).toEqual([hpeDriverDefinition]);
  });

  it("declares every capability but the DPU's, and BIOS profiles as its settings", () => {
    expect(hpeDriverDefinition).toMatchObject({ name: "hpe", vendor: "HPE" });
    expect([...hpeDriverDefinition.capabilities].sort()).toEqual(
      BMC_CAPABILITIES.filter((capability) => capability !== "dpu").sort(),
    );
    expect(hpeDriverDefinition.settingsSchema).toMatchObject({
      additionalProperties: false,
      properties: { biosProfiles: { type: "object" }, biosProfile: { type: "string" } },
    });
  });
});
