import { describe, expect, it } from "vitest";
import type { JsonObject } from "../json.js";
import { type PatchPlan, planPatch } from "./patchProperties.js";

const SYSTEM: JsonObject = {
  "@odata.id": "/redfish/v1/Systems/1",
  "@odata.type": "#ComputerSystem.v1_20_0.ComputerSystem",
  Id: "1",
  Name: "System",
  AssetTag: null,
  Boot: { BootSourceOverrideTarget: "None", BootOrder: ["Boot0001"] },
  Links: { ManagedBy: [] },
  Status: { State: "Enabled" },
  Actions: {},
  Oem: { Vendor: { Mode: "A", Deep: { Level: 1 } } },
};

const SETTINGS: JsonObject = {
  "@odata.id": "/redfish/v1/Systems/1/Bios/Settings",
  Id: "Settings",
  Attributes: { BootMode: "Uefi" },
};

const ACCOUNT: JsonObject = {
  "@odata.type": "#ManagerAccount.v1_10_0.ManagerAccount",
  Id: "2",
  UserName: "operator",
  RoleId: "Operator",
};

describe("planPatch", () => {
  it.each<[string, JsonObject, JsonObject, PatchPlan, Parameters<typeof planPatch>[2]?]>([
    ["an empty PATCH applies and ignores nothing", SYSTEM, {}, { apply: {}, ignored: [] }],
    [
      "existing properties are applied, null included",
      SYSTEM,
      { AssetTag: "rack-1", Name: "renamed" },
      { apply: { AssetTag: "rack-1", Name: "renamed" }, ignored: [] },
    ],
    [
      "an unknown top-level property is ignored",
      SYSTEM,
      { AssetTag: "x", Nope: 1 },
      { apply: { AssetTag: "x" }, ignored: [{ property: "Nope", reason: "unknown" }] },
    ],
    [
      "service-owned properties are read-only, known or not",
      SYSTEM,
      {
        Id: "2",
        "@odata.id": "/x",
        "@odata.etag": "W/1",
        Links: {},
        Status: {},
        Actions: {},
        Members: [],
        "Members@odata.count": 0,
        "@Redfish.Settings": {},
      },
      {
        apply: {},
        ignored: [
          { property: "Id", reason: "readOnly" },
          { property: "@odata.id", reason: "readOnly" },
          { property: "@odata.etag", reason: "readOnly" },
          { property: "Links", reason: "readOnly" },
          { property: "Status", reason: "readOnly" },
          { property: "Actions", reason: "readOnly" },
          { property: "Members", reason: "readOnly" },
          { property: "Members@odata.count", reason: "readOnly" },
          { property: "@Redfish.Settings", reason: "readOnly" },
        ],
      },
    ],
    [
      "nested unknown properties are ignored with their path",
      SYSTEM,
      { Boot: { BootSourceOverrideTarget: "Pxe", BootSourceOverrideFoo: "x" } },
      {
        apply: { Boot: { BootSourceOverrideTarget: "Pxe" } },
        ignored: [{ property: "Boot/BootSourceOverrideFoo", reason: "unknown" }],
      },
    ],
    [
      "an object whose every key is ignored applies nothing",
      SYSTEM,
      { Boot: { Foo: 1 }, Name: "n" },
      { apply: { Name: "n" }, ignored: [{ property: "Boot/Foo", reason: "unknown" }] },
    ],
    [
      "an Oem subtree is checked the same way",
      SYSTEM,
      { Oem: { Vendor: { Mode: "B", Deep: { Level: 2, Bad: 0 } }, Other: {} } },
      {
        apply: { Oem: { Vendor: { Mode: "B", Deep: { Level: 2 } } } },
        ignored: [
          { property: "Oem/Vendor/Deep/Bad", reason: "unknown" },
          { property: "Oem/Other", reason: "unknown" },
        ],
      },
    ],
    [
      "read-only names are read-only at any depth",
      SYSTEM,
      { Oem: { Vendor: { Mode: "B", "@odata.type": "#X" } } },
      {
        apply: { Oem: { Vendor: { Mode: "B" } } },
        ignored: [{ property: "Oem/Vendor/@odata.type", reason: "readOnly" }],
      },
    ],
    [
      "arrays are taken whole",
      SYSTEM,
      { Boot: { BootOrder: [{}, { Whatever: 1 }, null] } },
      { apply: { Boot: { BootOrder: [{}, { Whatever: 1 }, null] } }, ignored: [] },
    ],
    [
      "an object over a null or scalar is applied whole",
      { ...SYSTEM, AssetTag: null, Name: "n" },
      { AssetTag: { Any: 1 }, Name: { Other: 2 } },
      { apply: { AssetTag: { Any: 1 }, Name: { Other: 2 } }, ignored: [] },
    ],
    [
      "an empty object over an object is a harmless no-op",
      SYSTEM,
      { Boot: {} },
      { apply: { Boot: {} }, ignored: [] },
    ],
    [
      "an account's write-only Password is known",
      ACCOUNT,
      { Password: "secret", Nope: true },
      { apply: { Password: "secret" }, ignored: [{ property: "Nope", reason: "unknown" }] },
      { writeOnly: ["Password"] },
    ],
    [
      "without writeOnly, Password is unknown",
      ACCOUNT,
      { Password: "secret" },
      { apply: {}, ignored: [{ property: "Password", reason: "unknown" }] },
    ],
    [
      "attributes are known when the settings object has them",
      SETTINGS,
      { Attributes: { BootMode: "Legacy", NoSuch: "x" } },
      {
        apply: { Attributes: { BootMode: "Legacy" } },
        ignored: [{ property: "Attributes/NoSuch", reason: "unknown" }],
      },
    ],
    [
      "attributes are known when the parent Bios has them",
      { ...SETTINGS, Attributes: {} },
      { Attributes: { BootMode: "Legacy", Hyperthreading: "Disabled", NoSuch: 1 } },
      {
        apply: { Attributes: { BootMode: "Legacy", Hyperthreading: "Disabled" } },
        ignored: [{ property: "Attributes/NoSuch", reason: "unknown" }],
      },
      { knownAttributes: ["BootMode", "Hyperthreading"] },
    ],
    [
      "Attributes is known through the Bios even when missing",
      { Id: "Settings" },
      { Attributes: { BootMode: "Legacy" } },
      { apply: { Attributes: { BootMode: "Legacy" } }, ignored: [] },
      { knownAttributes: ["BootMode"] },
    ],
    [
      "attributes that are all unknown apply nothing",
      SETTINGS,
      { Attributes: { NoSuch: 1 } },
      { apply: {}, ignored: [{ property: "Attributes/NoSuch", reason: "unknown" }] },
    ],
    [
      "an attribute value is taken whole, even an object",
      { Attributes: { Table: { A: 1 } } },
      { Attributes: { Table: { B: 2 } } },
      { apply: { Attributes: { Table: { B: 2 } } }, ignored: [] },
    ],
    [
      "apply-time request annotations are accepted",
      SETTINGS,
      { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } },
      { apply: { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } }, ignored: [] },
    ],
    [
      "inherited object members are not properties",
      SYSTEM,
      { toString: "x", constructor: 1 },
      {
        apply: {},
        ignored: [
          { property: "toString", reason: "unknown" },
          { property: "constructor", reason: "unknown" },
        ],
      },
    ],
  ])("%s", (_name, current, patch, expected, options) => {
    expect(planPatch(current, patch, options)).toEqual(expected);
  });

  it("never mutates its arguments", () => {
    const current = structuredClone(SYSTEM);
    const patch: JsonObject = { Boot: { BootSourceOverrideTarget: "Pxe", Foo: 1 }, Id: "x" };
    const patchBefore = structuredClone(patch);
    planPatch(current, patch);
    expect(current).toEqual(SYSTEM);
    expect(patch).toEqual(patchBefore);
  });
});
