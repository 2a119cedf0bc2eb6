import { lastSegment } from "../redfish/index.js";
import { linksTo, odataKey } from "./odataLinks.js";

/** Where a system says its PCIe devices are. */
export interface PcieSystemSource {
  id: string;
  /** The system's `@odata.id`. */
  path: string;
  /** Its `PCIeDevices` links (the link array, or the members of its collection), in the BMC's order. */
  deviceLinks: readonly string[];
  /** Its `Links.Chassis`. */
  chassisLinks: readonly string[];
}

/** A chassis' `PCIeDevices` collection. */
export interface PcieChassisSource {
  id: string;
  /** The chassis' `@odata.id`. */
  path: string;
  /** Members of its `PCIeDevices` collection. */
  devicePaths: readonly string[];
  /** Its `Links.ComputerSystems`. */
  systemLinks: readonly string[];
}

/** One device to read, and who it belongs to. */
export interface PlannedPcieDevice {
  /** The URL it is read from (its chassis collection's when it has one). */
  path: string;
  systemId: string;
  chassisId: string | undefined;
}

/**
 * Each PCIe device of a BMC once, with the system and the chassis it belongs to. BMCs list a device both in a
 * chassis' `PCIeDevices` collection and in a system's `PCIeDevices` links: at the same URL (Lenovo, DGX-class
 * hosts) or at a system-side URL ending in the same Id (Dell: `Systems/…/PCIeDevices/0-17` and
 * `Chassis/…/PCIeDevices/0-17`). Both are one device; two chassis listing the same Id are two devices. Its chassis is the one whose collection lists it, else
 * the chassis its URL names. Its system is the first of `systems` that links it (pass the primary system
 * first); a device only a chassis lists goes to the first system tied to that chassis (its
 * `Links.ComputerSystems`, or the system's `Links.Chassis`), else to the first system. With no system there
 * is nothing to report a device under: the plan is empty.
 */
export function planPcieDevices(
  systems: readonly PcieSystemSource[],
  chassis: readonly PcieChassisSource[],
): PlannedPcieDevice[] {
  if (systems.length === 0) return [];
  const devices: PendingDevice[] = [];
  // Every URL a device is known by (a Dell device has two) → the device.
  const byUrl = new Map<string, PendingDevice>();
  for (const holder of chassis) {
    for (const path of holder.devicePaths) {
      if (byUrl.has(odataKey(path))) continue;
      const device: PendingDevice = { path, chassis: holder };
      devices.push(device);
      byUrl.set(odataKey(path), device);
    }
  }
  for (const system of systems) {
    for (const link of system.deviceLinks) {
      const known = byUrl.get(odataKey(link)) ?? sameIdInChassis(devices, link, system);
      if (known) {
        known.systemId ??= system.id;
        byUrl.set(odataKey(link), known);
        continue;
      }
      const device: PendingDevice = {
        path: link,
        chassis: chassisNamedBy(link, chassis),
        systemId: system.id,
      };
      devices.push(device);
      byUrl.set(odataKey(link), device);
    }
  }
  return devices.map((device) => ({
    path: device.path,
    systemId: device.systemId ?? systemOfChassis(device.chassis, systems),
    chassisId: device.chassis?.id ?? chassisIdFromPath(device.path),
  }));
}

interface PendingDevice {
  path: string;
  chassis: PcieChassisSource | undefined;
  systemId?: string;
}

/**
 * The device a system links at a URL of its own (not under a chassis): the not yet claimed device with the
 * same Id in a chassis collection, a chassis tied to the system first.
 */
function sameIdInChassis(
  devices: readonly PendingDevice[],
  link: string,
  system: PcieSystemSource,
): PendingDevice | undefined {
  if (chassisIdFromPath(link) !== undefined) return undefined;
  const id = lastSegment(link).toLowerCase();
  const candidates = devices.filter(
    (device) =>
      device.chassis !== undefined &&
      device.systemId === undefined &&
      lastSegment(device.path).toLowerCase() === id,
  );
  return candidates.find((device) => device.chassis && tied(device.chassis, system)) ?? candidates[0];
}

function tied(chassis: PcieChassisSource, system: PcieSystemSource): boolean {
  return linksTo(chassis.systemLinks, system.path) || linksTo(system.chassisLinks, chassis.path);
}

function systemOfChassis(
  chassis: PcieChassisSource | undefined,
  systems: readonly PcieSystemSource[],
): string {
  const owner = chassis ? systems.find((system) => tied(chassis, system)) : undefined;
  return (owner ?? (systems[0] as PcieSystemSource)).id;
}

function chassisNamedBy(link: string, chassis: readonly PcieChassisSource[]): PcieChassisSource | undefined {
  const id = chassisIdFromPath(link);
  return id === undefined ? undefined : chassis.find((c) => c.id.toLowerCase() === id.toLowerCase());
}

/** `Chassis/<id>/…` in a device URL. */
function chassisIdFromPath(path: string): string | undefined {
  const match = /\/Chassis\/([^/]+)\//i.exec(path);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}
