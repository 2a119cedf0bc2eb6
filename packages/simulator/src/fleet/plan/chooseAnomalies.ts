import { FleetScenarioError } from "../errors.js";
import { ANOMALY_KINDS, type AnomalyKind, type AnomalySpec, type FleetScenario } from "../scenario/index.js";
import { shuffledIndices } from "./random.js";

/** An anomaly given to one host: the kind and its settings. */
export interface ChosenAnomaly {
  readonly kind: AnomalyKind;
  readonly target: "host" | "dpu";
  readonly latencyMs: number;
}

const DEFAULT_SLOW_MS = 10_000;
const NEEDS_DPU: ReadonlySet<AnomalyKind> = new Set(["nicModeDpu", "missingDpu"]);
const HOST_ONLY: ReadonlySet<AnomalyKind> = new Set([
  "wrongSerial",
  "nicModeDpu",
  "missingDpu",
  "poweredOff",
]);

/**
 * Which hosts get which anomaly: a seeded shuffle of the hosts, then each kind (in a fixed order) takes the
 * next hosts that qualify (a DPU-mode host with DPUs, for DPU anomalies). A host gets at most one anomaly, so
 * each one shows alone. Errors name the anomaly that does not fit.
 */
export function chooseAnomalies(
  hosts: readonly { readonly hasDpu: boolean }[],
  anomalies: FleetScenario["anomalies"],
  random: () => number,
): Map<number, ChosenAnomaly> {
  const order = shuffledIndices(hosts.length, random);
  const chosen = new Map<number, ChosenAnomaly>();
  for (const kind of ANOMALY_KINDS) {
    const raw = anomalies?.[kind];
    if (raw === undefined) continue;
    const spec: AnomalySpec = typeof raw === "number" ? { count: raw } : raw;
    const target = spec.target ?? "host";
    if (target === "dpu" && HOST_ONLY.has(kind)) {
      throw new FleetScenarioError([{ key: `anomalies.${kind}.target`, problem: "applies to hosts only" }]);
    }
    const needsDpu = NEEDS_DPU.has(kind) || target === "dpu";
    const eligible = order.filter((index) => !chosen.has(index) && (!needsDpu || hosts[index]?.hasDpu));
    if (eligible.length < spec.count) {
      throw new FleetScenarioError([
        {
          key: `anomalies.${kind}`,
          problem: `needs ${spec.count} host${spec.count === 1 ? "" : "s"}${needsDpu ? " with a DPU" : ""} but only ${eligible.length} are left (a host gets one anomaly)`,
        },
      ]);
    }
    for (const index of eligible.slice(0, spec.count)) {
      chosen.set(index, { kind, target, latencyMs: spec.latencyMs ?? DEFAULT_SLOW_MS });
    }
  }
  return chosen;
}
