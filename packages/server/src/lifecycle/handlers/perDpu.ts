import type { MachineRow } from "../../explorer/index.js";
import type { Step } from "../machine/step.js";
import { leastAdvanced } from "../states.js";

/**
 * Runs one step on every DPU at the least advanced substate (the others already did it) and returns the
 * new substates: a DPU whose action returned a next step moves on. When every DPU failed, the first error is
 * thrown (the state is unchanged and retried); when some succeeded, they move on and the others retry.
 */
export async function advanceLeastAdvanced<T extends string>(
  step: Step,
  dpus: Record<string, T>,
  order: readonly T[],
  act: (dpu: MachineRow, current: T) => Promise<T | undefined>,
): Promise<{ next: Record<string, T>; moved: number; current: T }> {
  const current = leastAdvanced(dpus, order);
  if (current === undefined) throw new Error(`host ${step.host.id} has no DPU substates`);
  const behind = Object.entries(dpus).filter(([, s]) => s === current);
  const results = await Promise.allSettled(behind.map(([id]) => act(step.dpu(id), current)));
  const next = { ...dpus };
  let moved = 0;
  results.forEach((result, index) => {
    const id = (behind[index] as [string, T])[0];
    if (result.status === "fulfilled" && result.value !== undefined) {
      next[id] = result.value;
      moved++;
    }
  });
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure && moved === 0) throw failure.reason;
  return { next, moved, current };
}

/** Every DPU at the same substate (a sync point moves them together). */
export function allAt<T extends string>(dpus: Record<string, T>, steps: T): boolean {
  return Object.values(dpus).every((s) => s === steps);
}

export function allDpusAt<T extends string>(dpuIds: readonly string[], value: T): Record<string, T> {
  return Object.fromEntries(dpuIds.map((id) => [id, value]));
}
