import type { ExplorationReport } from "@racksmith/core";

/** The MACs of an exploration report, by owner: one entry per Ethernet interface (undefined when it has none). */
export interface ReportMacs {
  readonly managers: readonly (string | undefined)[];
  readonly systems: readonly (string | undefined)[];
  /** The managers' then the systems'. */
  readonly all: readonly (string | undefined)[];
}

/**
 * Every physical Ethernet interface's MAC in a report, for the "unique manager and system MACs" checks: a
 * virtual (VLAN) interface shares its parent's MAC by design, so it is left out.
 */
export function reportMacs(report: ExplorationReport): ReportMacs {
  const physical = (i: { interfaceType?: string }) => i.interfaceType !== "Virtual";
  const managers = report.managers.flatMap((m) => m.ethernetInterfaces.filter(physical).map((i) => i.mac));
  const systems = report.systems.flatMap((s) => s.ethernetInterfaces.filter(physical).map((i) => i.mac));
  return { managers, systems, all: [...managers, ...systems] };
}
