// `npm run test:stress -- --runs N`: the whole suite N times beside a CPU hog, then every test that failed.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageFolders, repositoryRoot } from "../files/index.ts";
import {
  formatSummary,
  type PackageResult,
  REPORT_FILE,
  readPackageReports,
  testedPackages,
  unstableTests,
} from "../reports/index.ts";
import { type CpuHog, parseStressArgs, startCpuHog, UsageError } from "../stress/index.ts";

let options: ReturnType<typeof parseStressArgs>;
try {
  options = parseStressArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`test:stress: ${error.message}`);
  process.exit(2);
}

const packages = testedPackages(repositoryRoot, packageFolders(repositoryRoot));
const workDir = mkdtempSync(join(tmpdir(), "racksmith-stress-"));
const hog: CpuHog | undefined = options.hog ? startCpuHog() : undefined;
const stopHog = () => hog?.stop();
process.on("exit", stopHog);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => process.exit(130));
}

console.log(
  `test:stress: ${options.runs} run(s) beside ${hog?.description ?? "no CPU hog"}; logs in ${workDir}`,
);
const runs: PackageResult[][] = [];
for (let run = 1; run <= options.runs; run++) {
  for (const pkg of packages) rmSync(join(pkg.dir, REPORT_FILE), { force: true });
  const log = join(workDir, `run-${run}.log`);
  const started = Date.now();
  const exitCode = await runSuite(log);
  const seconds = Math.round((Date.now() - started) / 1000);
  const runDir = join(workDir, `run-${run}`);
  for (const pkg of packages) {
    const report = join(pkg.dir, REPORT_FILE);
    if (!existsSync(report)) continue;
    const target = join(runDir, pkg.name, REPORT_FILE);
    mkdirSync(join(target, ".."), { recursive: true });
    cpSync(report, target);
  }
  const lines = readPackageReports(packages, (pkg) => join(runDir, pkg.name));
  const totals = formatSummary(lines).at(-1);
  console.log(`run ${run}/${options.runs}: ${seconds} s, turbo exit ${exitCode}; ${totals}`);
  runs.push(lines.map((line) => ("missing" in line ? missingAsFailure(line.name) : line)));
}

const unstable = unstableTests(runs);
const flaky = unstable.filter((t) => t.flaky);
const broken = unstable.filter((t) => !t.flaky);
console.log(`\n${flaky.length} flaky test(s), ${broken.length} failing in every run`);
for (const t of unstable) {
  const kind = t.flaky ? "flaky " : "broken";
  console.log(
    `  ${kind} ${t.failures}/${t.runs}  ${t.package}: ${t.id}${t.lastFailure ? ` — ${t.lastFailure}` : ""}`,
  );
}
process.exit(unstable.length === 0 ? 0 : 1);

function runSuite(logPath: string): Promise<number> {
  const filters = options.filters.flatMap((filter) => ["--filter", filter]);
  const out = openSync(logPath, "w");
  const child = spawn("npx", ["turbo", "run", "test", "--continue", "--force", ...filters], {
    cwd: repositoryRoot,
    stdio: ["ignore", out, out],
  });
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

// A package with no report crashed or never started: one failure, so the run does not look clean.
function missingAsFailure(name: string): PackageResult {
  return {
    name,
    passed: 0,
    failed: 1,
    skipped: 0,
    seconds: 0,
    tests: [{ id: "(no report: the test task did not finish)", outcome: "failed" }],
  };
}
