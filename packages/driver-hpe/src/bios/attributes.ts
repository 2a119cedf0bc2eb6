import type { BiosAttributes } from "@racksmith/core";

/** iLO virtual serial port on COM1 with the BIOS console redirected to it (what `vsp` over SSH shows). */
export const SERIAL_CONSOLE_ATTRIBUTES: Readonly<BiosAttributes> = {
  EmbeddedSerialPort: "Com2Irq3",
  EmsConsole: "Virtual",
  SerialConsoleBaudRate: "BaudRate115200",
  SerialConsoleEmulation: "Vt100Plus",
  SerialConsolePort: "Virtual",
  UefiSerialDebugLevel: "ErrorsOnly",
  VirtualSerialPort: "Com1Irq4",
};

/** A TPM clear on the next boot; the BIOS sets `Tpm2Operation` back to `NoAction` once done. */
export const TPM_CLEAR_ATTRIBUTES: Readonly<BiosAttributes> = {
  Tpm2Operation: "Clear",
  TpmVisibility: "Visible",
};

/** One-shot attributes the BIOS resets after acting on them: never expected to read back. */
export const ONE_SHOT_ATTRIBUTES: ReadonlySet<string> = new Set(["Tpm2Operation"]);

/** IOMMU for passthrough: Intel VT-d or AMD IOMMU, whichever this BIOS has. */
export const VIRTUALIZATION_KEYS = ["IntelProcVtd", "ProcAmdIoVt"] as const;

/** UEFI network boot over DHCPv4 with HTTP(S) boot allowed (the DPU serves the host's boot image). */
export const UEFI_NIC_BOOT_ATTRIBUTES: Readonly<BiosAttributes> = {
  Dhcpv4: "Enabled",
  HttpSupport: "Auto",
};

/** Lockdown blocks booting from USB media. */
export const USB_BOOT_ATTRIBUTE = "UsbBoot";
