import type { SerialNumberSource } from "../drivers/explorationReport.js";
import { trimSerial } from "./mappers.js";
import { linksTo } from "./odataLinks.js";

/** What the serial rule needs of a computer system. */
export interface SystemSerialFacts {
  /** The system's `@odata.id`. */
  path: string;
  id: string;
  serialNumber: string | null | undefined;
  /** `Links.Chassis` of the system, in the BMC's order. */
  chassisLinks: readonly string[];
}

/** What the serial rule needs of a chassis. */
export interface ChassisSerialFacts {
  /** The chassis' `@odata.id`. */
  path: string;
  id: string;
  serialNumber: string | null | undefined;
  /** `Links.ComputerSystems` of the chassis. */
  systemLinks: readonly string[];
}

export interface HostSerial {
  serialNumber: string;
  /** Set when the serial is a chassis' (the system's own is empty). */
  source?: SerialNumberSource;
}

/**
 * The serial a host is known by. Its own `SerialNumber` when it has one; else, as NICo does for trays whose
 * `ComputerSystem.SerialNumber` is empty (GB200/GH200 compute trays, a BlueField's `Card1`), the serial of
 * the chassis that holds it: the first chassis in the system's `Links.Chassis` that has one, else the first
 * chassis (collection order) whose `Links.ComputerSystems` names the system, else the chassis with the
 * system's Id. Any other chassis' serial is never taken: a serial is the machine's identity.
 */
export function hostSerial(
  system: SystemSerialFacts,
  chassis: readonly ChassisSerialFacts[],
): HostSerial | undefined {
  const own = trimSerial(system.serialNumber);
  if (own) return { serialNumber: own };
  const withSerial = chassis.flatMap((c) => {
    const serialNumber = trimSerial(c.serialNumber);
    return serialNumber ? [{ ...c, serialNumber }] : [];
  });
  for (const link of system.chassisLinks) {
    const linked = withSerial.find((c) => linksTo([link], c.path));
    if (linked) return fromChassis(linked, "Links.Chassis");
  }
  const linking = withSerial.find((c) => linksTo(c.systemLinks, system.path));
  if (linking) return fromChassis(linking, "Links.ComputerSystems");
  const sameId = withSerial.find((c) => c.id === system.id);
  return sameId ? fromChassis(sameId, "Id") : undefined;
}

function fromChassis(
  chassis: { id: string; serialNumber: string },
  via: SerialNumberSource["via"],
): HostSerial {
  return { serialNumber: chassis.serialNumber, source: { chassisId: chassis.id, via } };
}
