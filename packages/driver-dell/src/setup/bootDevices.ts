import type { BootOptionInfo, BootTarget } from "@racksmith/core";
import type { DellNic } from "../idrac/nicInventory.js";

/** Models that cannot PXE boot and network-boot over UEFI HTTP only. */
const UEFI_HTTP_ONLY_MODELS = new Set(["poweredge xe9680"]);

function bootsOnlyOverUefiHttp(model: string | undefined): boolean {
  return UEFI_HTTP_ONLY_MODELS.has((model ?? "").trim().toLowerCase());
}

/** `ServerBoot.1.FirstBootDevice` while locked down: PXE, or UEFI HTTP on models that cannot PXE boot. */
export function lockedFirstBootDevice(model: string | undefined): "PXE" | "UefiHttp" {
  return bootsOnlyOverUefiHttp(model) ? "UefiHttp" : "PXE";
}

/** `ServerBoot.1.FirstBootDevice` for a boot target on this model, or why the iDRAC cannot boot it. */
export function firstBootDevice(
  target: BootTarget,
  model: string | undefined,
): { device: string } | { unsupported: string } {
  const httpOnly = bootsOnlyOverUefiHttp(model);
  switch (target) {
    case "hdd":
      return { device: "HDD" };
    case "pxe":
      return httpOnly
        ? { unsupported: `the ${model} cannot PXE boot; boot it over uefiHttp` }
        : { device: "PXE" };
    case "uefiHttp":
      return httpOnly
        ? { device: "UefiHttp" }
        : {
            unsupported:
              "this iDRAC's ServerBoot.1.FirstBootDevice has no UEFI HTTP choice (only models that cannot PXE boot have it); use setBootOrderDpuFirst to put the DPU's HTTP device first",
          };
  }
}

/** `HTTP Device 1: NIC in Slot 5 Port 1`: the device part is the NIC's DellNIC DeviceDescription. */
const DEVICE_OPTION = /^(?:Unavailable:\s*)?(HTTP|PXE) Device (\d+):\s*(.+?)\s*$/i;

function deviceOf(option: BootOptionInfo): { kind: string; index: number; device: string } | undefined {
  const match = DEVICE_OPTION.exec(option.displayName);
  return match
    ? { kind: (match[1] ?? "").toUpperCase(), index: Number(match[2]), device: match[3] ?? "" }
    : undefined;
}

/** The boot option name machine setup makes the DPU's port boot under. */
export function httpDeviceName(nic: DellNic): string {
  return `HTTP Device 1: ${nic.description ?? nic.fqdd}`;
}

/** Is this an HTTP boot device bound to that NIC? */
export function isHttpDeviceFor(option: BootOptionInfo, nic: DellNic): boolean {
  const device = deviceOf(option);
  return device?.kind === "HTTP" && device.device === nic.description;
}

/** The DPU's HTTP boot option: HTTP Device 1 (what machine setup configures), else any HTTP device on it. */
export function dpuBootOption(options: readonly BootOptionInfo[], nic: DellNic): BootOptionInfo | undefined {
  const candidates = options.filter((option) => isHttpDeviceFor(option, nic));
  return candidates.find((option) => deviceOf(option)?.index === 1) ?? candidates[0];
}

/**
 * iDRAC HTTP and PXE device options carry no MAC (their UEFI path is `VenHw(…)`); they name the NIC instead.
 * Fills in the MAC of the NIC each one is bound to, so MAC-based callers can find them.
 */
export function withDeviceMacs(
  options: readonly BootOptionInfo[],
  nics: readonly DellNic[],
): BootOptionInfo[] {
  return options.map((option) => {
    const device = option.mac ? undefined : deviceOf(option);
    const mac = device ? nics.find((nic) => nic.description === device.device)?.mac : undefined;
    return mac ? { ...option, mac } : option;
  });
}

/** Whether any option still needs its MAC from the NIC inventory. */
export function hasDeviceOptions(options: readonly BootOptionInfo[]): boolean {
  return options.some((option) => !option.mac && deviceOf(option) !== undefined);
}
