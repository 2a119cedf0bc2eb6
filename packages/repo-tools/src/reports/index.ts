export type { UnstableTest } from "./flaky.ts";
export { unstableTests } from "./flaky.ts";
export type { TestedPackage } from "./readReports.ts";
export { REPORT_FILE, readPackageReports, testedPackages } from "./readReports.ts";
export type { MissingReport, PackageLine } from "./summary.ts";
export { allPassed, formatSummary } from "./summary.ts";
export type { PackageResult, TestOutcome, TestResult, VitestJsonReport } from "./vitestReport.ts";
export { readVitestReport } from "./vitestReport.ts";
