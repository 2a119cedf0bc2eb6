import { InvalidArgumentError } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { xccPasswordPolicyPatch } from "../src/accounts/index.js";
import { machineSetupPlan } from "../src/bios/index.js";
import { dpuEntry, parseNetworkBootOrder } from "../src/boot/index.js";
import { dottedVersion, restartCutsDpuPower } from "../src/firmware/index.js";
import { isKcsEnabled, kcsValue } from "../src/lockdown/index.js";

describe("XCC version strings", () => {
  it.each([
    ["TGBT42S 2.83 2023-07-05", "2.83"],
    ["42S-2.83", "2.83"],
    ["KAE120F-7.10", "7.10"],
    ["U8E122J", undefined],
    [undefined, undefined],
  ])("%s → %s", (raw, version) => {
    expect(dottedVersion(raw)).toBe(version);
  });

  it("matches the ForceRestart quirk on the exact SKU and firmware pair only", () => {
    expect(restartCutsDpuPower(" 7d9rctolww ", { uefi: "7.10", bmc: "9.10" })).toBe(true);
    expect(restartCutsDpuPower("7D9RCTOLWW", { uefi: "7.10", bmc: "9.20" })).toBe(false);
    expect(restartCutsDpuPower("7D9RCTO1WW", { uefi: "7.10", bmc: "9.10" })).toBe(false);
  });
});

describe("KCSEnabled", () => {
  it("keeps the type and spelling the firmware reports", () => {
    expect(kcsValue(true, false)).toBe(false);
    expect(kcsValue("Enabled", false)).toBe("Disabled");
    expect(kcsValue("true", false)).toBe("false");
    expect(kcsValue("FALSE", true)).toBe("true");
  });

  it("reads an unknown string as enabled, so lockdown is never claimed on a guess", () => {
    expect([false, "Disabled", "false", " disabled "].map(isKcsEnabled)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([true, "Enabled", "true", "Unknown"].map(isKcsEnabled)).toEqual([true, true, true, true]);
  });
});

describe("network boot order", () => {
  it("keeps ordered entries the firmware does not list as supported, and finds the DPU by MAC", () => {
    const order = parseNetworkBootOrder("/x", {
      BootOrderNext: ["UEFI: SLOT2 (C1/0/0) HTTP IPv4  Nvidia Network Adapter - 5C:25:73:00:00:01", 7],
      BootOrderSupported: ["UEFI: SLOT2 (C1/0/0) PXE IPv4  Nvidia Network Adapter - 5C:25:73:00:00:01"],
    });
    expect(order.supported).toHaveLength(2);
    // Only the HTTP IPv4 entry boots the DPU; the PXE one of the same port does not count.
    expect(dpuEntry(order, "5C:25:73:00:00:01")).toBe(order.next[0]);
  });
});

describe("machine setup plan", () => {
  it("skips virtualization when the BIOS has neither the Intel nor the AMD setting", () => {
    const plan = machineSetupPlan({ LegacyBIOS_LegacyBIOS: "Enabled" });
    expect(plan.skipped).toEqual([
      "Processors_IntelVirtualizationTechnology | Processors_SVMMode",
      "LegacyBIOS_NonOnboardPXE",
    ]);
    expect(plan.staged.LegacyBIOS_LegacyBIOS).toBe("Disabled");
    expect(plan.expected).not.toHaveProperty("TrustedComputingGroup_DeviceOperation");
  });

  it("lets the profile override a vendor setting", () => {
    const plan = machineSetupPlan({}, { BootModes_InfiniteBootRetry: "Disabled" });
    expect(plan.staged.BootModes_InfiniteBootRetry).toBe("Disabled");
    expect(plan.expected.BootModes_InfiniteBootRetry).toBe("Disabled");
  });
});

describe("password policy", () => {
  it("refuses a policy with nothing to change", () => {
    expect(() => xccPasswordPolicyPatch({})).toThrow(InvalidArgumentError);
  });
});
