import { describe, expect, it } from "vitest";
import { inCurrentSpelling } from "../src/bios/index.js";
import { canonicalAttributeName, machineSetupAttributes, resolveAttributeKeys } from "../src/index.js";

describe("BIOS attribute names", () => {
  it.each([
    ["QuietBoot_002D", "quietboot"],
    ["QuietBoot#002D", "quietboot"],
    ["QuietBoot", "quietboot"],
    ["Re_tryBoot_0032", "retryboot"],
    ["Re-tryBoot#0032", "retryboot"],
    ["IntelVTforDirectedI_O_VT_d__1E32", "intelvtfordirectediovtd"],
    ["IntelVTforDirectedI/O(VT-d)#1E32", "intelvtfordirectediovtd"],
    ["IntelVTforDirectedI/O(VT-d)", "intelvtfordirectediovtd"],
    ["Hyper_Threading_ALL__F27F", "hyperthreadingall"],
    ["Hyper-Threading [ALL]", "hyperthreadingall"],
  ])("%s is known as %s", (key, canonical) => {
    expect(canonicalAttributeName(key)).toBe(canonical);
  });

  it("resolves a name to every instance, lets exact keys win, and reports names no key matches", () => {
    const current = { TXTSupport_0062: "Disabled", TXTSupport_0072: "Disabled", QuietBoot_002D: true };
    expect(
      resolveAttributeKeys(
        { TXTSupport: "Enabled", TXTSupport_0072: "Disabled", "Quiet Boot": false, NoSuchThing: 1 },
        current,
      ),
    ).toEqual({
      attributes: { TXTSupport_0062: "Enabled", TXTSupport_0072: "Disabled", QuietBoot_002D: false },
      unknown: ["NoSuchThing"],
    });
  });

  it("a profile written with one firmware's suffix applies to another's", () => {
    expect(resolveAttributeKeys({ Re_tryBoot_0031: "EFI Boot" }, { "Re-tryBoot#0032": "Disabled" })).toEqual({
      attributes: { "Re-tryBoot#0032": "EFI Boot" },
      unknown: [],
    });
  });
});

describe("machine-setup values", () => {
  it.each([
    ["Enabled", "Disable", "Enable"],
    ["Enabled", "Enabled", "Enabled"],
    ["Enable", "Disabled", "Enabled"],
    [false, "Enabled", "Disabled"],
    ["Enabled", false, true],
    ["EFI Boot", "Disabled", "EFI Boot"],
    ["TPM 2.0", undefined, "TPM 2.0"],
  ] as const)("%j written where the attribute holds %j is %j", (wanted, current, expected) => {
    expect(inCurrentSpelling(wanted, current)).toBe(expected);
  });

  it("maps the table onto X13 keys (Name_XXXX) in each key's spelling and skips what the BIOS lacks", () => {
    const x13 = {
      QuietBoot_002D: true,
      Re_tryBoot_0032: "Disabled",
      SecurityDeviceSupport_005A: "Enable",
      SecurityDeviceSupport_0063: "Disable",
      SR_IOVSupport_0047: "Disabled",
      NUMA_003B: "Enabled",
    };
    expect(machineSetupAttributes(x13)).toEqual({
      QuietBoot_002D: false,
      Re_tryBoot_0032: "EFI Boot",
      SecurityDeviceSupport_005A: "Enable",
      SecurityDeviceSupport_0063: "Enable",
      SR_IOVSupport_0047: "Enabled",
    });
  });

  it("maps the table onto older keys (Name#XXXX with punctuation)", () => {
    const older = {
      "IntelVTforDirectedI/O(VT-d)#1E32": "Disable",
      "DeviceSelect#005F": "Auto",
      "SecurityDeviceSupport#005A": "Disabled",
    };
    expect(machineSetupAttributes(older)).toEqual({
      "IntelVTforDirectedI/O(VT-d)#1E32": "Enable",
      "DeviceSelect#005F": "TPM 2.0",
      "SecurityDeviceSupport#005A": "Enabled",
    });
  });
});
