import { invalidTransitions, type MachineDetail } from "@racksmith/server";

export interface HistoryRules {
  /** The host must end in `ready` (else only its history is checked). */
  readonly endsReady: boolean;
  /**
   * A state may not follow itself (a transition written twice). True for hosts with one DPU and no injected
   * failure; retries of a faulty BMC may legitimately re-enter a state.
   */
  readonly noRepeats: boolean;
}

/**
 * What is wrong with one host's lifecycle history (newest first, as the REST API gives it): versions not
 * exactly 1..n (one skipped or written twice), a transition the lifecycle graph does not have, a state
 * following itself, not starting at `created`, not ending at `ready`. Empty when it is sound.
 */
export function historyProblems(host: MachineDetail, rules: HistoryRules): string[] {
  const entries = [...host.history].reverse();
  const problems: string[] = [];
  const versions = entries.map((entry) => Number(entry.version));
  const expected = entries.map((_, index) => index + 1);
  if (versions.join(",") !== expected.join(",")) {
    problems.push(`${host.id}: history versions ${compact(versions)} are not 1..${entries.length}`);
  }
  const labels = entries.map((entry) => entry.label);
  for (const { index, from, to } of invalidTransitions(labels)) {
    problems.push(`${host.id}: invalid transition v${index}→v${index + 1} ${from} → ${to}`);
  }
  if (rules.noRepeats) {
    for (let index = 1; index < labels.length; index++) {
      if (labels[index] === labels[index - 1]) {
        problems.push(`${host.id}: ${labels[index]} entered twice in a row (v${index}, v${index + 1})`);
      }
    }
  }
  if (labels[0] !== "created") problems.push(`${host.id}: history starts at ${labels[0] ?? "nothing"}`);
  if (rules.endsReady && labels.at(-1) !== "ready") {
    problems.push(`${host.id}: history ends at ${labels.at(-1) ?? "nothing"}, not ready`);
  }
  return problems;
}

/** `1,2,3,5,5,6` → `1-3,5,5-6`: short enough for a failure line. */
function compact(values: readonly number[]): string {
  const parts: string[] = [];
  let start = 0;
  for (let index = 1; index <= values.length; index++) {
    const previous = values[index - 1] as number;
    if (index < values.length && values[index] === previous + 1) continue;
    const first = values[start] as number;
    parts.push(first === previous ? `${first}` : `${first}-${previous}`);
    start = index;
  }
  return parts.join(",");
}
