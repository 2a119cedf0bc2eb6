import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageLine } from "./summary.ts";
import { readVitestReport, type VitestJsonReport } from "./vitestReport.ts";

/** Where vitest.base.ts has each package write its JSON report, relative to the package. */
export const REPORT_FILE = ".test-results/report.json";

/** Each workspace package that has a test script, by folder. */
export interface TestedPackage {
  readonly name: string;
  readonly dir: string;
}

export function testedPackages(root: string, folders: readonly string[]): TestedPackage[] {
  return folders.flatMap((folder) => {
    const dir = join(root, "packages", folder);
    const manifestPath = join(dir, "package.json");
    if (!existsSync(manifestPath)) return [];
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      name: string;
      scripts?: { test?: string };
    };
    return manifest.scripts?.test ? [{ name: manifest.name, dir }] : [];
  });
}

/** Reads the report each package left in `reportDirOf(pkg)` (its own folder by default). */
export function readPackageReports(
  packages: readonly TestedPackage[],
  reportDirOf: (pkg: TestedPackage) => string = (pkg) => pkg.dir,
): PackageLine[] {
  return packages.map((pkg) => {
    const path = join(reportDirOf(pkg), REPORT_FILE);
    if (!existsSync(path)) return { name: pkg.name, missing: true };
    const report = JSON.parse(readFileSync(path, "utf8")) as VitestJsonReport;
    return readVitestReport(pkg.name, pkg.dir, report);
  });
}
