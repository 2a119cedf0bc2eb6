import type { PackageResult } from "./vitestReport.ts";

/** A package whose test task ran but left no report (it crashed, or vitest never started). */
export interface MissingReport {
  readonly name: string;
  readonly missing: true;
}

export type PackageLine = PackageResult | MissingReport;

/** One line per package, then the totals in the `N passed, N failed` form CI reads. */
export function formatSummary(packages: readonly PackageLine[]): string[] {
  const width = Math.max(...packages.map((p) => p.name.length), 7);
  const lines = packages.map((p) => {
    const name = p.name.padEnd(width);
    if ("missing" in p) return `${name}  no report: its test task did not finish`;
    const verdict = p.failed > 0 ? "FAILED" : "ok";
    return `${name}  ${verdict.padEnd(6)} ${p.passed} passed, ${p.failed} failed, ${p.skipped} skipped  (${p.seconds.toFixed(0)} s)`;
  });
  const reported = packages.filter((p): p is PackageResult => !("missing" in p));
  const sum = (key: "passed" | "failed" | "skipped") => reported.reduce((total, p) => total + p[key], 0);
  const missing = packages.length - reported.length;
  const failures = reported.flatMap((p) =>
    p.tests
      .filter((t) => t.outcome === "failed")
      .map((t) => `  ✗ ${p.name}: ${t.id}${t.failure ? ` — ${t.failure}` : ""}`),
  );
  return [
    ...lines,
    ...(failures.length > 0 ? ["", "failed tests:", ...failures] : []),
    ...(missing > 0 ? [`${missing} package(s) left no report`] : []),
    `Tests: ${sum("passed")} passed, ${sum("failed") + missing} failed, ${sum("skipped")} skipped`,
  ];
}

/** Whether the summary is a pass: every package reported and nothing failed. */
export function allPassed(packages: readonly PackageLine[]): boolean {
  return packages.every((p) => !("missing" in p) && p.failed === 0);
}
