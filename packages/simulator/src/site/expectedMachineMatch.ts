import { normalizeMac } from "@racksmith/core";
import type { ExpectedMachine, ExpectedMachineInput } from "@racksmith/server";

/** How a fleet's expected machines compare with the ones a service already holds. */
export interface ExpectedMachineMatch {
  /** The fleet's machines the service does not hold yet: to register. */
  missing: ExpectedMachineInput[];
  /** How many of the fleet's machines the service holds exactly as the fleet describes them. */
  same: number;
  /** The fleet's machines the service holds otherwise: MAC and the fields that differ. */
  changed: Array<{ bmcMac: string; fields: string[] }>;
  /** MACs the service holds that are not the fleet's. */
  foreign: string[];
}

/** The fields compared, as the service stores them. */
type Comparable = Omit<ExpectedMachine, "bmcMac" | "createdAt" | "updatedAt">;

/** Matches machines by BMC MAC and compares what the service stores of them (a password only as present). */
export function matchExpectedMachines(
  fleet: readonly ExpectedMachineInput[],
  stored: readonly ExpectedMachine[],
): ExpectedMachineMatch {
  const byMac = new Map(stored.map((machine) => [normalizeMac(machine.bmcMac) ?? machine.bmcMac, machine]));
  const match: ExpectedMachineMatch = { missing: [], same: 0, changed: [], foreign: [] };
  const fleetMacs = new Set<string>();
  for (const machine of fleet) {
    const mac = normalizeMac(machine.bmcMac) ?? machine.bmcMac;
    fleetMacs.add(mac);
    const existing = byMac.get(mac);
    if (!existing) {
      match.missing.push(machine);
      continue;
    }
    const fields = differingFields(asStored(machine), existing);
    if (fields.length === 0) match.same++;
    else match.changed.push({ bmcMac: mac, fields });
  }
  match.foreign = [...byMac.keys()].filter((mac) => !fleetMacs.has(mac));
  return match;
}

/** An input as the service would store it: text trimmed, absent values as the service's defaults. */
function asStored(machine: ExpectedMachineInput): Comparable {
  const text = (value: string | undefined) => value?.trim() || null;
  return {
    bmcAddress: text(machine.bmcAddress),
    factoryUsername: text(machine.factoryUsername),
    hasFactoryPassword: Boolean(machine.factoryPassword),
    chassisSerial: machine.chassisSerial.trim(),
    fallbackDpuSerials: (machine.fallbackDpuSerials ?? []).map((serial) => serial.trim()),
    // The inventory's default mode.
    dpuMode: machine.dpuMode ?? "dpu",
    driver: text(machine.driver),
    labels: machine.labels ?? {},
    skuId: text(machine.skuId),
  };
}

function differingFields(wanted: Comparable, stored: Comparable): string[] {
  return (Object.keys(wanted) as Array<keyof Comparable>).filter(
    (field) => canonical(wanted[field]) !== canonical(stored[field]),
  );
}

/** JSON with object keys sorted, so `{a, b}` equals `{b, a}`. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
