import type { ExplorationReport } from "@racksmith/core";

/** The MACs of an exploration report, by owner: one entry per Ethernet interface (undefined when it has none). */
export interface ReportMacs {
  readonly managers: readonly (string | undefined)[];
  readonly systems: readonly (string | undefined)[];
  /** The managers' then the systems'. */
  readonly all: readonly (string | undefined)[];
}

/** Every Ethernet interface's MAC in a report, for the "unique manager and system MACs" checks. */
export function reportMacs(report: ExplorationReport): ReportMacs {
  const managers = report.managers.flatMap((m) => m.ethernetInterfaces.map((i) => i.mac));
  const systems = report.systems.flatMap((s) => s.ethernetInterfaces.map((i) => i.mac));
  return { managers, systems, all: [...managers, ...systems] };
}
