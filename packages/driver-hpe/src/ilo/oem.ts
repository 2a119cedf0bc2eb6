import type { ActionTarget, ODataLink, RedfishResource } from "@racksmith/core/redfish";

/** `Oem.Hpe` of a resource: BMC data is untrusted, so every field is optional and checked where used. */
export function hpeOem<T extends object>(resource: RedfishResource | undefined): Partial<T> {
  const section = resource?.Oem?.Hpe;
  return section && typeof section === "object" ? (section as Partial<T>) : {};
}

/** An OEM action as iLO advertises it: under `Oem.Hpe.Actions`, not under `Actions`. */
export function hpeAction(resource: RedfishResource, action: string): ActionTarget | undefined {
  const actions = hpeOem<{ Actions: Record<string, ActionTarget | undefined> }>(resource).Actions;
  return actions?.[action];
}

/** `ComputerSystem.Oem.Hpe`. */
export interface HpeSystemOem {
  Links: { NetworkAdapters?: ODataLink };
}

/** `Manager.Oem.Hpe` (iLO). */
export interface HpeManagerOem {
  VirtualNICEnabled: boolean;
  Firmware: { Current?: { MajorVersion?: number; MinorVersion?: number; VersionString?: string } };
}

/** `ManagerNetworkProtocol.Oem.Hpe`; `KcsEnabled` exists from iLO 6 1.40. */
export interface HpeNetworkProtocolOem {
  KcsEnabled: boolean;
}

/** `UpdateService.Oem.Hpe`: iLO 5 reports a flash in progress here instead of a task. */
export interface HpeUpdateServiceOem {
  State: string;
  FlashProgressPercent: number;
  Result: { MessageId?: string };
}

/** One entry of `HpeServerBootSettings.BootSources`. */
export interface HpeBootSource {
  BootOptionNumber?: string;
  BootString?: string;
  StructuredBootString?: string;
  UEFIDevicePath?: string;
}

/** `Systems/{s}/Bios/oem/hpe/boot` and its pending `settings/` twin. */
export interface HpeServerBootSettings extends RedfishResource {
  BootSources?: HpeBootSource[];
  PersistentBootConfigOrder?: string[];
}

/** `Systems/{s}/BaseNetworkAdapters/{id}` (iLO 5). */
export interface HpeBaseNetworkAdapter extends RedfishResource {
  Firmware?: { Current?: { VersionString?: string } };
  PartNumber?: string | null;
  SerialNumber?: string | null;
  StructuredName?: string | null;
}

/** `Managers/{m}/NetworkProtocol`: SSH carries iLO's virtual serial port. */
export interface ManagerNetworkProtocol extends RedfishResource {
  SSH?: { ProtocolEnabled?: boolean };
}
