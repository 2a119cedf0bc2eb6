import type { ComputerSystem } from "../redfish/index.js";
import { text } from "./mappers.js";

/** What choosing the host system needs of each computer system a BMC lists. */
export interface SystemChoiceFacts {
  id: string;
  name?: string | undefined;
  /** `SystemType` (`Physical`, `DPU`, `Virtual`, …). */
  systemType?: string | undefined;
  /** It has boot options (a `Boot.BootOptions` link or a non-empty `Boot.BootOrder`): the host boots from it. */
  bootable: boolean;
}

export function systemChoiceFacts(id: string, system: ComputerSystem | undefined): SystemChoiceFacts {
  return {
    id,
    name: text(system?.Name),
    systemType: text(system?.SystemType),
    bootable:
      typeof system?.Boot?.BootOptions?.["@odata.id"] === "string" ||
      (Array.isArray(system?.Boot?.BootOrder) && system.Boot.BootOrder.length > 0),
  };
}

/**
 * A GPU baseboard exposed as a computer system of its own (`HGX_Baseboard_0` next to a DGX's `DGX` or a GB200
 * tray's `System_0`): no OS boots on it.
 */
export function isBaseboardSystem(system: Pick<SystemChoiceFacts, "id" | "name">): boolean {
  return /baseboard/i.test(system.id) || /baseboard/i.test(system.name ?? "");
}

/**
 * The system the lifecycle drives when a BMC lists several (a DGX-class host and its HGX baseboard): the
 * first, in collection order, of those ranked highest by (1) not being a baseboard, (2) `SystemType`
 * `Physical` (or none given), (3) having boot options. One system, or a tie, gives the first listed.
 */
export function choosePrimarySystem(systems: readonly SystemChoiceFacts[]): string | undefined {
  let best: { id: string; rank: number } | undefined;
  for (const system of systems) {
    const rank =
      (isBaseboardSystem(system) ? 0 : 4) +
      (system.systemType === undefined || system.systemType.toLowerCase() === "physical" ? 2 : 0) +
      (system.bootable ? 1 : 0);
    if (!best || rank > best.rank) best = { id: system.id, rank };
  }
  return best?.id;
}
