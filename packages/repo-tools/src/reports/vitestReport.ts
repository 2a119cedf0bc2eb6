// The parts of vitest's JSON report (reporter "json") that the summary and the stress runner read.
export interface VitestJsonReport {
  readonly startTime: number;
  readonly success: boolean;
  readonly testResults: readonly {
    readonly name: string;
    readonly status: string;
    readonly message: string;
    readonly startTime: number;
    readonly endTime: number;
    readonly assertionResults: readonly {
      readonly fullName: string;
      readonly status: string;
      readonly failureMessages: readonly string[] | null;
    }[];
  }[];
}

export type TestOutcome = "passed" | "failed" | "skipped";

/** One test's outcome; a file that failed to load counts as one failed test named after the file. */
export interface TestResult {
  /** `<file relative to the package> › <full name>`: stable across runs. */
  readonly id: string;
  readonly outcome: TestOutcome;
  readonly failure?: string;
}

export interface PackageResult {
  readonly name: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly seconds: number;
  readonly tests: readonly TestResult[];
}

/** Reads one package's report; `packageDir` makes the file names relative. */
export function readVitestReport(name: string, packageDir: string, report: VitestJsonReport): PackageResult {
  const tests: TestResult[] = [];
  let end = report.startTime;
  for (const file of report.testResults) {
    const relativeFile = relativeTo(packageDir, file.name);
    end = Math.max(end, file.endTime);
    if (file.assertionResults.length === 0 && file.status === "failed") {
      tests.push({ id: `${relativeFile} › (file)`, outcome: "failed", failure: firstLine(file.message) });
      continue;
    }
    for (const test of file.assertionResults) {
      const outcome = outcomeOf(test.status);
      const failure = outcome === "failed" ? firstLine(test.failureMessages?.[0] ?? "") : undefined;
      tests.push({ id: `${relativeFile} › ${test.fullName}`, outcome, ...(failure ? { failure } : {}) });
    }
  }
  const count = (outcome: TestOutcome) => tests.filter((t) => t.outcome === outcome).length;
  return {
    name,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    seconds: Math.max(0, (end - report.startTime) / 1000),
    tests,
  };
}

function outcomeOf(status: string): TestOutcome {
  if (status === "passed") return "passed";
  if (status === "failed") return "failed";
  return "skipped";
}

function relativeTo(dir: string, file: string): string {
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim().slice(0, 300);
}
