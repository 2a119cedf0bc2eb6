import type {
  AccountInfo,
  BootOptionInfo,
  DriveInfo,
  EthernetInterfaceInfo,
  FirmwareComponent,
  LogEntryInfo,
  NetworkAdapterInfo,
  PcieDeviceInfo,
  PowerState,
} from "../drivers/types.js";
import type {
  BootOption,
  Drive,
  EthernetInterface,
  LogEntry,
  ManagerAccount,
  NetworkAdapter,
  PCIeDevice,
  SoftwareInventory,
} from "../redfish/index.js";

/** `b83fd2909582`, `B8-3F-D2-90-95-82`, `b8:3f:d2:90:95:82` → `B8:3F:D2:90:95:82`; undefined if not a MAC. */
export function normalizeMac(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const hex = raw.trim().replace(/[:\-.\s]/g, "");
  if (!/^[0-9a-fA-F]{12}$/.test(hex) || /^0{12}$/.test(hex)) return undefined;
  return hex.toUpperCase().match(/.{2}/g)?.join(":");
}

/** The MAC inside a UEFI device path (`…/MAC(B83FD2909582,0x1)/…`), if any. */
export function macFromUefiDevicePath(path: string | null | undefined): string | undefined {
  const match = path ? /MAC\(([0-9A-Fa-f]{12})\s*,/.exec(path) : null;
  return match ? normalizeMac(match[1]) : undefined;
}

/**
 * A MAC printed in a boot option's display name: `… - B8:3F:D2:D7:F7:4A (PXE IPv4)`, `(MAC:B83FD2AA0001)`
 * or Supermicro's compact `… - 7CC255793F8E`.
 */
export function macFromText(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const match =
    /\b([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})\b/.exec(text) ??
    /(?:MAC[:=]\s*|\s-\s)([0-9A-Fa-f]{12})\b/.exec(text);
  return match ? normalizeMac(match[1]) : undefined;
}

/** Serial numbers are compared and stored trimmed (BMCs pad them with spaces). */
export function trimSerial(raw: unknown): string | undefined {
  return typeof raw === "string" && raw.trim() ? raw.trim() : undefined;
}

export function text(raw: unknown): string | undefined {
  return typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined;
}

/** The manufacturer, model, part and serial number that Chassis, PCIeDevice and NetworkAdapter all carry. */
export function assetIdentity(resource: {
  Manufacturer?: unknown;
  Model?: unknown;
  PartNumber?: unknown;
  SerialNumber?: unknown;
}): Pick<NetworkAdapterInfo, "manufacturer" | "model" | "partNumber" | "serialNumber"> {
  return {
    manufacturer: text(resource.Manufacturer),
    model: text(resource.Model),
    partNumber: text(resource.PartNumber),
    serialNumber: trimSerial(resource.SerialNumber),
  };
}

/** A resource's `Status`: its health and state. */
export function statusOf(
  status: { Health?: unknown; State?: unknown } | undefined,
): Pick<PcieDeviceInfo, "health" | "state"> {
  return { health: text(status?.Health), state: text(status?.State) };
}

export function numberOrNull(raw: unknown): number | null {
  return typeof raw === "number" && Number.isFinite(raw) ? raw : null;
}

const POWER_STATES: readonly PowerState[] = ["On", "Off", "PoweringOn", "PoweringOff", "Paused"];

export function toPowerState(raw: unknown): PowerState {
  return POWER_STATES.find((state) => state === raw) ?? "Unknown";
}

export function toEthernetInterfaceInfo(resource: EthernetInterface): EthernetInterfaceInfo {
  const mac =
    normalizeMac(resource.MACAddress) ??
    normalizeMac(resource.MacAddress) ??
    normalizeMac(resource.PermanentMACAddress);
  const interfaceType = ethernetInterfaceType(resource);
  return {
    id: resource.Id ?? "",
    mac,
    uefiDevicePath: text(resource.UefiDevicePath),
    enabled: typeof resource.InterfaceEnabled === "boolean" ? resource.InterfaceEnabled : undefined,
    linkStatus: text(resource.LinkStatus),
    ipv4Addresses: (resource.IPv4Addresses ?? [])
      .map((address) => text(address?.Address))
      .filter((address): address is string => !!address && address !== "0.0.0.0"),
    ...(interfaceType ? { interfaceType } : {}),
  };
}

/**
 * What an interface is: its `EthernetInterfaceType` when stated, else `Virtual` for a VLAN-tagged interface
 * that names the interface it is built on (`Links.RelatedInterfaces`), else unknown.
 */
export function ethernetInterfaceType(resource: EthernetInterface): "Physical" | "Virtual" | undefined {
  const stated = resource.EthernetInterfaceType;
  if (stated === "Physical" || stated === "Virtual") return stated;
  const related = resource.Links?.RelatedInterfaces;
  return isVlanTagged(resource) && Array.isArray(related) && related.length > 0 ? "Virtual" : undefined;
}

/**
 * One collection's interfaces. A VLAN sub-interface of a BMC that states no types (`VLAN.VLANEnable` and the
 * MAC of an untagged sibling, its parent) is marked `Virtual` too: it is not a second NIC with that MAC.
 */
export function toEthernetInterfaceInfos(resources: readonly EthernetInterface[]): EthernetInterfaceInfo[] {
  const tagged = resources.map(isVlanTagged);
  const infos = resources.map(toEthernetInterfaceInfo);
  const untaggedMacs = new Set(infos.filter((_, i) => !tagged[i]).map((info) => info.mac));
  return infos.map(
    (info, i): EthernetInterfaceInfo =>
      info.interfaceType === undefined && tagged[i] && info.mac && untaggedMacs.has(info.mac)
        ? { ...info, interfaceType: "Virtual" }
        : info,
  );
}

function isVlanTagged(resource: EthernetInterface): boolean {
  return resource.VLAN?.VLANEnable === true;
}

export function toPcieDeviceInfo(resource: PCIeDevice): PcieDeviceInfo {
  return {
    id: resource.Id ?? "",
    name: text(resource.Name),
    ...assetIdentity(resource),
    firmwareVersion: text(resource.FirmwareVersion),
    deviceType: text(resource.DeviceType),
    ...statusOf(resource.Status),
  };
}

export function toNetworkAdapterInfo(resource: NetworkAdapter, chassisId: string): NetworkAdapterInfo {
  return {
    id: resource.Id ?? "",
    chassisId,
    ...assetIdentity(resource),
    firmwareVersion: text(resource.Controllers?.[0]?.FirmwarePackageVersion),
  };
}

export function toFirmwareComponent(resource: SoftwareInventory): FirmwareComponent {
  return {
    id: resource.Id ?? "",
    name: text(resource.Name) ?? resource.Id ?? "",
    version: text(resource.Version) ?? "",
    updateable: typeof resource.Updateable === "boolean" ? resource.Updateable : undefined,
    ...(text(resource.ReleaseDate) ? { releaseDate: text(resource.ReleaseDate) } : {}),
  };
}

export function toAccountInfo(resource: ManagerAccount): AccountInfo {
  return {
    id: resource.Id ?? "",
    userName: resource.UserName ?? "",
    roleId: resource.RoleId ?? "",
    enabled: typeof resource.Enabled === "boolean" ? resource.Enabled : undefined,
    locked: typeof resource.Locked === "boolean" ? resource.Locked : undefined,
  };
}

export function toBootOptionInfo(resource: BootOption): BootOptionInfo {
  const displayName = resource.DisplayName ?? resource.Name ?? "";
  return {
    id: resource.Id ?? "",
    reference: resource.BootOptionReference ?? resource.Id ?? "",
    displayName,
    enabled: typeof resource.BootOptionEnabled === "boolean" ? resource.BootOptionEnabled : undefined,
    uefiDevicePath: text(resource.UefiDevicePath),
    mac: macFromUefiDevicePath(resource.UefiDevicePath) ?? macFromText(displayName),
  };
}

export function toDriveInfo(resource: Drive, storageId: string): DriveInfo {
  return {
    id: resource.Id ?? "",
    storageId,
    name: text(resource.Name),
    model: text(resource.Model),
    serialNumber: trimSerial(resource.SerialNumber),
    capacityBytes: typeof resource.CapacityBytes === "number" ? resource.CapacityBytes : undefined,
    mediaType: text(resource.MediaType),
    protocol: text(resource.Protocol),
    health: text(resource.Status?.Health),
  };
}

export function toLogEntryInfo(resource: LogEntry, source: string): LogEntryInfo {
  return {
    id: resource.Id ?? "",
    created: text(resource.Created),
    severity: text(resource.Severity),
    message: resource.Message ?? "",
    messageId: text(resource.MessageId),
    source,
  };
}

/** Drives attached over USB (virtual media, SD modules) are not server storage. */
export function isUsbDrive(drive: DriveInfo, resource: Drive): boolean {
  return /usb/i.test(drive.protocol ?? "") || /usb/i.test(String(resource["@odata.id"] ?? ""));
}
