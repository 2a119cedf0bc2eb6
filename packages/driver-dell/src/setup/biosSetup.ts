import type { BiosAttributes } from "@racksmith/core";
import { type AttributeMap, type Expectation, type SettingCheck, textOf } from "./checks.js";

/** The boot entry machine setup points at the DPU (UEFI HTTP device 1). */
const HTTP_DEVICE_1 = "NIC.HttpDevice.1-1";

/** TPM clear: the BIOS clears the TPM hierarchy at the next boot, then shows `Tpm2Hierarchy=Enabled` again. */
export const TPM_CLEAR: BiosAttributes = { TpmSecurity: "On", Tpm2Hierarchy: "Clear" };

/** The BIOS half of unlocking: in-band management and UEFI variables open again (BIOS lockdown blocks IPMI). */
export const BIOS_UNLOCK: BiosAttributes = {
  InBandManageabilityInterface: "Enabled",
  UefiVariableAccess: "Standard",
};

/** Staged before a reboot, this makes the BIOS drop auxiliary power as well: an AC power cycle. */
export const AC_POWER_CYCLE: BiosAttributes = { PowerCycleRequest: "FullPowerCycle" };

/** SerialComm values that redirect the console (OnConRedirAuto is what an R640 and newer BIOS report). */
const REDIRECTING = ["OnConRedir", "OnConRedirAuto", "OnConRedirCom1", "OnConRedirCom2"];
const SERIAL_PORTS = ["Com1", "Serial1Com2Serial2Com1"];

/** Newer BIOS (iDRAC 10 generation) names ports `Serial1Com…` and redirects with `OnConRedirAuto`. */
function newSerialNaming(current: AttributeMap): boolean {
  return String(current.SerialPortAddress ?? "").startsWith("Serial1");
}

function serialRedirection(current: AttributeMap): BiosAttributes {
  const newer = newSerialNaming(current);
  return {
    SerialComm: newer ? "OnConRedirAuto" : "OnConRedir",
    SerialPortAddress: newer ? "Serial1Com2Serial2Com1" : "Com1",
  };
}

/** Only the attributes this BIOS has (an absent one would make the iDRAC refuse the whole change). */
function present(
  current: AttributeMap,
  wanted: BiosAttributes,
): { attributes: BiosAttributes; skipped: string[] } {
  const attributes: BiosAttributes = {};
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    if (key in current) attributes[key] = value;
    else skipped.push(key);
  }
  return { attributes, skipped };
}

/** Serial console redirection at 115200 on COM1/Serial1, kept after boot where the BIOS has that setting. */
export function serialConsoleAttributes(current: AttributeMap): BiosAttributes {
  return present(current, {
    ...serialRedirection(current),
    ExtSerialConnector: "Serial1",
    FailSafeBaud: "115200",
    ConTermType: "Vt100Vt220",
    RedirAfterBoot: "Enabled",
  }).attributes;
}

/** BIOS side of the serial console status (the iDRAC side is the remote access checks). */
export function serialConsoleChecks(current: AttributeMap): SettingCheck[] {
  const optional = (key: string, check: Omit<SettingCheck, "key" | "actual">): SettingCheck[] =>
    key in current ? [{ key, actual: textOf(current[key]), ...check }] : [];
  return [
    { key: "SerialComm", actual: textOf(current.SerialComm), on: REDIRECTING, off: ["Off"] },
    ...optional("RedirAfterBoot", { on: ["Enabled"], off: ["Disabled"] }),
    { key: "SerialPortAddress", actual: textOf(current.SerialPortAddress), on: SERIAL_PORTS },
    ...optional("ExtSerialConnector", { on: ["Serial1"] }),
    { key: "FailSafeBaud", actual: textOf(current.FailSafeBaud), on: ["115200"] },
    { key: "ConTermType", actual: textOf(current.ConTermType), on: ["Vt100Vt220"] },
  ];
}

/** Boot from UEFI HTTP device 1 on the DPU's port; PXE device 1 off; the rest of the boot list disabled. */
function dpuBootAttributes(current: AttributeMap, slot: string): BiosAttributes {
  const enabled = String(current.SetBootOrderEn ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return {
    HttpDev1EnDis: "Enabled",
    PxeDev1EnDis: "Disabled",
    HttpDev1Interface: slot,
    SetBootOrderEn: slot,
    HttpDev1TlsMode: "None",
    // What was enabled before, minus the DPU's own entries: never disable what this change enables.
    SetBootOrderDis: enabled.filter((entry) => entry !== HTTP_DEVICE_1 && entry !== slot).join(","),
  };
}

/**
 * The BIOS half of machine setup (NICo's Dell table) for one configuration job. With the DPU's slot
 * (`NIC.Slot.5-1`) the host boots from UEFI HTTP device 1 on it. Attributes this BIOS lacks are skipped.
 */
export function machineSetupAttributes(
  current: AttributeMap,
  dpuSlot?: string,
): { attributes: BiosAttributes; skipped: string[] } {
  return present(current, {
    InBandManageabilityInterface: "Disabled",
    UefiVariableAccess: "Standard",
    ...serialRedirection(current),
    FailSafeBaud: "115200",
    ConTermType: "Vt100Vt220",
    // iDRAC 10 BIOS has no RedirAfterBoot: ask for it only where it exists.
    ...("RedirAfterBoot" in current ? { RedirAfterBoot: "Enabled" } : {}),
    SriovGlobalEnable: "Enabled",
    TpmSecurity: "On",
    Tpm2Hierarchy: "Clear",
    Tpm2Algorithm: "SHA256",
    // BootMode is read-only on UEFI-only (iDRAC 10) hardware: write it only to leave legacy mode.
    ...("BootMode" in current && current.BootMode !== "Uefi" ? { BootMode: "Uefi" } : {}),
    ...(dpuSlot ? dpuBootAttributes(current, dpuSlot) : {}),
  });
}

/** Directives the BIOS acts on once; they say nothing about whether setup is done. */
const DIRECTIVES = new Set(["SetBootOrderEn", "SetBootOrderDis"]);

/** What machine setup leaves in the BIOS once its job ran and the host rebooted. */
export function machineSetupExpectations(current: AttributeMap, dpuSlot?: string): Expectation[] {
  return Object.entries(machineSetupAttributes(current, dpuSlot).attributes)
    .filter(([key]) => !DIRECTIVES.has(key))
    .map(([key, value]) => ({
      key,
      accepted:
        key === "Tpm2Hierarchy"
          ? ["Enabled"] // the clear ran and the hierarchy is back
          : key === "SerialComm"
            ? [...new Set([String(value), "OnConRedir", "OnConRedirAuto"])] // an R640 reports Auto
            : [String(value)],
    }));
}
