import type { BiosAttributes } from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";
import { matchingAttributeKeys } from "./attributeNames.js";

/**
 * The BIOS settings a host needs before Racksmith manages it (NICo's Supermicro machine setup), by the name
 * the attribute has across firmware. Attributes a firmware does not have (`DeviceSelect` is gone on X13) are
 * skipped.
 */
export const MACHINE_SETUP_ATTRIBUTES: Readonly<BiosAttributes> = {
  QuietBoot: false,
  "Re-tryBoot": "EFI Boot",
  CSMSupport: "Disabled",
  SecureBootEnable: false,
  // TPM and measured boot
  TXTSupport: "Enabled",
  DeviceSelect: "TPM 2.0",
  SecurityDeviceSupport: "Enabled",
  // Virtualisation for tenant VMs and SR-IOV NICs
  "IntelVTforDirectedI/O(VT-d)": "Enable",
  IntelVirtualizationTechnology: "Enable",
  "SR-IOVSupport": "Enabled",
  // Boot over UEFI HTTP (IPv4) from the DPU only
  IPv4HTTPSupport: "Enabled",
  IPv4PXESupport: "Disabled",
  IPv6HTTPSupport: "Disabled",
  IPv6PXESupport: "Disabled",
};

const SPELLINGS: ReadonlyArray<Readonly<Record<"on" | "off", string>>> = [
  { on: "Enabled", off: "Disabled" },
  { on: "Enable", off: "Disable" },
];

function switchState(value: BiosValue): "on" | "off" | undefined {
  if (typeof value === "boolean") return value ? "on" : "off";
  for (const spelling of SPELLINGS) {
    if (value === spelling.on) return "on";
    if (value === spelling.off) return "off";
  }
  return undefined;
}

/**
 * The wanted value written the way this attribute spells it now: firmware mixes `Enabled`/`Disabled`,
 * `Enable`/`Disable` and booleans, and refuses the other spelling. Values that are not on/off switches
 * (`EFI Boot`, `TPM 2.0`) are kept as they are.
 */
export function inCurrentSpelling(wanted: BiosValue, current: BiosValue | undefined): BiosValue {
  const state = switchState(wanted);
  if (state === undefined || current === undefined) return wanted;
  if (typeof current === "boolean") return state === "on";
  const spelling = SPELLINGS.find((s) => current === s.on || current === s.off);
  return spelling ? spelling[state] : wanted;
}

/** The machine-setup table resolved to this BMC's attribute keys, each value in the key's own spelling. */
export function machineSetupAttributes(current: BiosAttributes): BiosAttributes {
  const resolved: BiosAttributes = {};
  for (const [name, wanted] of Object.entries(MACHINE_SETUP_ATTRIBUTES)) {
    for (const key of matchingAttributeKeys(name, current)) {
      resolved[key] = inCurrentSpelling(wanted, current[key]);
    }
  }
  return resolved;
}
