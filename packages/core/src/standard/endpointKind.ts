import type { EndpointKind } from "../drivers/explorationReport.js";
import { isBaseboardSystem } from "./primarySystem.js";

/** What telling a host BMC from a switch tray's or a power shelf's needs. */
export interface EndpointShape {
  systems: ReadonlyArray<{ id: string; name?: string | undefined }>;
  chassis: ReadonlyArray<{ id: string; chassisType?: string | undefined }>;
  /** Switches listed under `Fabrics/<fabric>/Switches` (read only when the BMC lists no computer system). */
  fabricSwitches?: number;
  /** Members of `PowerEquipment/PowerShelves` (read only when the BMC lists no computer system). */
  powerShelves?: number;
}

export interface EndpointClassification {
  kind: EndpointKind;
  /** The evidence, in words (`chassis MGX_NVSwitch_0 is an NVLink switch tray's`). */
  reason: string;
}

/**
 * What a BMC manages. In order:
 * 1. `switch`: a chassis named like an NVLink switch tray's (`MGX_NVSwitch_*`, NICo's test; the tray may list
 *    a `System_0` for its own CPU) or of `ChassisType` `Switch`;
 * 2. `powerShelf`: a chassis named `*powershelf*` (NICo's test) or of `ChassisType` `PowerShelf`;
 * 3. `host`: a computer system that is not a GPU baseboard (a server, or a DPU's own BMC);
 * 4. with no such system: `switch` when `Fabrics` list switches, `powerShelf` when `PowerEquipment` lists power
 *    shelves, else `unknown`.
 */
export function classifyEndpoint(shape: EndpointShape): EndpointClassification {
  const switchChassis = shape.chassis.filter(
    (c) => /^MGX_NVSwitch/i.test(c.id) || equalsIgnoreCase(c.chassisType, "Switch"),
  );
  if (switchChassis.length > 0) {
    return { kind: "switch", reason: withFabrics(`chassis ${chassisList(switchChassis)}`, shape) };
  }
  const shelfChassis = shape.chassis.filter(
    (c) => /powershelf/i.test(c.id) || equalsIgnoreCase(c.chassisType, "PowerShelf"),
  );
  if (shelfChassis.length > 0) {
    return { kind: "powerShelf", reason: withShelves(`chassis ${chassisList(shelfChassis)}`, shape) };
  }
  const hosts = shape.systems.filter((system) => !isBaseboardSystem(system));
  if (hosts.length > 0) {
    return { kind: "host", reason: `computer system ${hosts.map((s) => s.id).join(", ")}` };
  }
  const none =
    shape.systems.length > 0
      ? `its only computer systems (${shape.systems.map((s) => s.id).join(", ")}) are GPU baseboards`
      : "no computer system";
  if ((shape.fabricSwitches ?? 0) > 0) {
    return { kind: "switch", reason: `${none}; Fabrics list ${count(shape.fabricSwitches, "switch")}` };
  }
  if ((shape.powerShelves ?? 0) > 0) {
    return {
      kind: "powerShelf",
      reason: `${none}; PowerEquipment lists ${count(shape.powerShelves, "power shelf", "power shelves")}`,
    };
  }
  return {
    kind: "unknown",
    reason:
      shape.systems.length > 0
        ? `${none}; no switch or power shelf`
        : "no computer system, switch or power shelf",
  };
}

function chassisList(chassis: ReadonlyArray<{ id: string; chassisType?: string | undefined }>): string {
  return chassis.map((c) => (c.chassisType ? `${c.id} (${c.chassisType})` : c.id)).join(", ");
}

function withFabrics(reason: string, shape: EndpointShape): string {
  return shape.fabricSwitches ? `${reason}; Fabrics list ${count(shape.fabricSwitches, "switch")}` : reason;
}

function withShelves(reason: string, shape: EndpointShape): string {
  return shape.powerShelves
    ? `${reason}; PowerEquipment lists ${count(shape.powerShelves, "power shelf", "power shelves")}`
    : reason;
}

function count(n: number | undefined, one: string, many = `${one}es`): string {
  return `${n ?? 0} ${n === 1 ? one : many}`;
}

function equalsIgnoreCase(value: string | undefined, expected: string): boolean {
  return value?.toLowerCase() === expected.toLowerCase();
}
