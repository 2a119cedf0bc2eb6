import type { BiosAttributes } from "@racksmith/core";

/** COM1 console redirection shared with the XCC, so the BMC's serial-over-LAN reaches the host console. */
export const SERIAL_CONSOLE_ATTRIBUTES: Readonly<BiosAttributes> = {
  DevicesandIOPorts_COMPort1: "Enabled",
  DevicesandIOPorts_ConsoleRedirection: "Enabled",
  DevicesandIOPorts_SPRedirection: "Enabled",
  DevicesandIOPorts_SerialPortSharing: "Enabled",
  DevicesandIOPorts_COMPortActiveAfterBoot: "Enabled",
  DevicesandIOPorts_SerialPortAccessMode: "Shared",
};

/** One-shot: UEFI clears the TPM at the next boot and then reads the operation back as `None`. */
export const TPM_CLEAR_ATTRIBUTES: Readonly<BiosAttributes> = {
  TrustedComputingGroup_DeviceOperation: "Clear",
};

/** Intel platforms call CPU virtualization VT-x, AMD ones SVM; a platform has exactly one of them. */
const VIRTUALIZATION_KEYS = ["Processors_IntelVirtualizationTechnology", "Processors_SVMMode"] as const;

/** UEFI-only boot over IPv4 HTTP (the DPU's boot path), retried forever instead of falling into setup. */
const UEFI_HTTP_BOOT_ATTRIBUTES: Readonly<BiosAttributes> = {
  LegacyBIOS_NonOnboardPXE: "Disabled",
  LegacyBIOS_LegacyBIOS: "Disabled",
  BootModes_SystemBootMode: "UEFIMode",
  NetworkStackSettings_IPv4HTTPSupport: "Enabled",
  NetworkStackSettings_IPv4PXESupport: "Disabled",
  NetworkStackSettings_IPv6PXESupport: "Disabled",
  BootModes_InfiniteBootRetry: "Enabled",
};

/** UEFI-only platforms (ThinkSystem V3 and later) have no legacy BIOS settings at all. */
const LEGACY_BIOS_KEYS: ReadonlySet<string> = new Set(["LegacyBIOS_NonOnboardPXE", "LegacyBIOS_LegacyBIOS"]);

export interface MachineSetupPlan {
  /** The one Bios/Pending write machine setup makes: vendor settings in libredfish's order, then the profile. */
  staged: BiosAttributes;
  /** What the BIOS must show once the host rebooted (the one-shot TPM clear is not checked). */
  expected: BiosAttributes;
  /** Vendor settings this platform does not have, so nothing is staged for them. */
  skipped: string[];
}

/** The BIOS attributes machine setup stages on this platform, given its current attributes. */
export function machineSetupPlan(current: BiosAttributes, profile: BiosAttributes = {}): MachineSetupPlan {
  const skipped: string[] = [];
  const virtualizationKey = VIRTUALIZATION_KEYS.find((key) => key in current);
  if (!virtualizationKey) skipped.push(VIRTUALIZATION_KEYS.join(" | "));
  const uefi: BiosAttributes = {};
  for (const [key, value] of Object.entries(UEFI_HTTP_BOOT_ATTRIBUTES)) {
    if (LEGACY_BIOS_KEYS.has(key) && !(key in current)) skipped.push(key);
    else uefi[key] = value;
  }
  const settings: BiosAttributes = {
    ...SERIAL_CONSOLE_ATTRIBUTES,
    ...(virtualizationKey ? { [virtualizationKey]: "Enabled" } : {}),
    ...uefi,
    ...profile,
  };
  return {
    staged: { ...SERIAL_CONSOLE_ATTRIBUTES, ...TPM_CLEAR_ATTRIBUTES, ...settings },
    expected: settings,
    skipped,
  };
}

/** The serial console settings, each with whether the current BIOS has it. */
export function serialConsoleFlags(current: BiosAttributes): Array<[string, boolean]> {
  return Object.entries(SERIAL_CONSOLE_ATTRIBUTES).map(([key, value]) => [
    `${key}=${String(value)}`,
    current[key] === value,
  ]);
}
