import type { PackageResult } from "./vitestReport.ts";

export interface UnstableTest {
  readonly package: string;
  readonly id: string;
  readonly failures: number;
  readonly runs: number;
  /** Failed in some runs and passed in others (otherwise it failed every time it ran). */
  readonly flaky: boolean;
  readonly lastFailure?: string;
}

/** The tests that failed in any of several runs of the suite, most failures first. */
export function unstableTests(runs: readonly (readonly PackageResult[])[]): UnstableTest[] {
  const seen = new Map<
    string,
    { package: string; id: string; failures: number; runs: number; lastFailure?: string }
  >();
  for (const run of runs) {
    for (const pkg of run) {
      for (const test of pkg.tests) {
        if (test.outcome === "skipped") continue;
        const key = `${pkg.name}\u0000${test.id}`;
        const entry = seen.get(key) ?? { package: pkg.name, id: test.id, failures: 0, runs: 0 };
        entry.runs += 1;
        if (test.outcome === "failed") {
          entry.failures += 1;
          if (test.failure) entry.lastFailure = test.failure;
        }
        seen.set(key, entry);
      }
    }
  }
  return [...seen.values()]
    .filter((t) => t.failures > 0)
    .map((t) => ({ ...t, flaky: t.failures < t.runs }))
    .sort(
      (a, b) => b.failures - a.failures || a.package.localeCompare(b.package) || a.id.localeCompare(b.id),
    );
}
