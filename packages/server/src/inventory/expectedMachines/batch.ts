import type { ErrorCode } from "@racksmith/core";
import type { ExpectedMachineRowResult } from "../contracts.js";
import { describeProblems } from "../errors.js";
import { type ValidExpectedMachine, validateExpectedMachine } from "./validate.js";

/** The rows of a bulk request after the checks that need no database. */
export interface CheckedBatch {
  /** One per row, in order; `ok` until a row is rejected. */
  results: ExpectedMachineRowResult[];
  /** The rows still good, by index. */
  valid: Map<number, ValidExpectedMachine>;
  /** Every readable MAC a row names, good or bad: a replace-all keeps these stored machines. */
  named: Set<string>;
}

export function rejectRow(batch: CheckedBatch, index: number, code: ErrorCode, message: string): void {
  batch.valid.delete(index);
  const result = batch.results[index];
  if (result) {
    result.ok = false;
    result.error = { code, message };
  }
}

/** Validates every row and rejects each one whose MAC another row of the request also uses. */
export function checkExpectedMachines(rows: readonly unknown[]): CheckedBatch {
  const batch: CheckedBatch = { results: [], valid: new Map(), named: new Set() };
  const rowsByMac = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const checked = validateExpectedMachine(row);
    const bmcMac = checked.ok ? checked.machine.bmcMac : checked.bmcMac;
    batch.results.push({ index, bmcMac: bmcMac ?? "", ok: true });
    if (checked.ok) batch.valid.set(index, checked.machine);
    else rejectRow(batch, index, "invalid_expected_machine", describeProblems(checked.problems));
    if (bmcMac) {
      batch.named.add(bmcMac);
      rowsByMac.set(bmcMac, [...(rowsByMac.get(bmcMac) ?? []), index]);
    }
  });
  for (const [bmcMac, indexes] of rowsByMac) {
    if (indexes.length < 2) continue;
    for (const index of indexes) {
      const others = indexes.filter((other) => other !== index).map((other) => `machines[${other}]`);
      const reason = `bmcMac: ${bmcMac} is also in ${others.join(", ")}`;
      const earlier = batch.results[index]?.error?.message;
      rejectRow(batch, index, "duplicate_bmc_mac", earlier ? `${reason}; ${earlier}` : reason);
    }
  }
  return batch;
}
