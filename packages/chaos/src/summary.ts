import type { ChaosScenario, ScenarioResult } from "./scenario.js";

/** The table every run ends with: one row per measure of each scenario, then its verdict. */
export function summaryTable(
  results: ReadonlyArray<{ scenario: ChaosScenario; result: ScenarioResult }>,
): string {
  const rows: Array<[string, string, string]> = [["scenario", "measure", "value"]];
  for (const { scenario, result } of results) {
    for (const { measure, value } of result.measures) rows.push([scenario.name, measure, String(value)]);
    const verdict = result.skipped
      ? `skipped: ${result.skipped}`
      : result.failures.length === 0
        ? "passed"
        : `FAILED (${result.failures.length})`;
    rows.push([scenario.name, "verdict", verdict]);
  }
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column as 0 | 1 | 2].length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const [head, ...body] = rows;
  return [line(head ?? []), rule, ...body.map(line)].join("\n");
}
