import type { ChaosForm, ChaosMeasure, ChaosOptions, ScenarioResult } from "../scenario.js";
import { ChaosSite, type ChaosSiteOptions } from "./chaosSite.js";
import { type ObservedProcess, OverlapWatch, overlapFailures } from "./overlap.js";
import { runSeed, seededRandom } from "./random.js";

/** What a scenario body gets: the site, and where its measures and failures go. */
export interface SiteRun {
  readonly site: ChaosSite;
  readonly overlap: OverlapWatch;
  readonly measures: ChaosMeasure[];
  readonly failures: string[];
  measure(measure: string, value: string | number): void;
  log(line: string): void;
}

/** What every PostgreSQL scenario starts from: the database, its form's sizes and this run's random choices. */
export interface ScenarioStart<Size> {
  databaseUrl: string;
  size: Size;
  seed: number;
  random: () => number;
}

/** The start of a PostgreSQL scenario, or undefined when there is no database (it reports itself skipped). */
export function scenarioStart<Size>(
  options: ChaosOptions,
  sizes: Record<ChaosForm, Size>,
): ScenarioStart<Size> | undefined {
  if (!options.databaseUrl) return undefined;
  const seed = runSeed();
  return { databaseUrl: options.databaseUrl, size: sizes[options.form], seed, random: seededRandom(seed) };
}

/** Why a PostgreSQL scenario did not run. */
export function skippedWithoutPostgres(): ScenarioResult {
  return {
    skipped: "RACKSMITH_TEST_DATABASE_URL is not set: it runs racksmith serve on PostgreSQL",
    measures: [],
    failures: [],
  };
}

/**
 * Runs a scenario body on a fresh site and always closes it — every process stopped, the fleet stopped, the
 * schema dropped — whatever the body did. A body that throws becomes a failure. Processes that exited on
 * their own (a crash) and handler overlaps seen in the logs are failures of every scenario. The service logs
 * are kept when anything failed, or always with `RACKSMITH_CHAOS_KEEP_LOGS=1`.
 */
export async function runOnSite(
  options: ChaosOptions & { databaseUrl: string },
  site: Omit<ChaosSiteOptions, "databaseUrl" | "log" | "onLine">,
  body: (run: SiteRun) => Promise<void>,
): Promise<ScenarioResult> {
  const measures: ChaosMeasure[] = [];
  const failures: string[] = [];
  const overlap = new OverlapWatch();
  const warnings = new Map<string, number>();
  const chaosSite = await ChaosSite.create({
    ...site,
    databaseUrl: options.databaseUrl,
    log: options.log,
    onLine: (line) => {
      overlap.observe(line);
      // pino levels: 40 warn, 50 error, 60 fatal.
      const level = line.json?.level;
      if (typeof level === "number" && level >= 40) {
        const message = `${level >= 50 ? "error" : "warn"}: ${String(line.json?.msg)}`;
        warnings.set(message, (warnings.get(message) ?? 0) + 1);
      }
    },
  });
  const run: SiteRun = {
    site: chaosSite,
    overlap,
    measures,
    failures,
    measure: (measure, value) => {
      measures.push({ measure, value });
    },
    log: options.log,
  };
  try {
    await body(run);
  } catch (error) {
    failures.push((error as Error)?.stack ?? String(error));
  }
  try {
    for (const serve of chaosSite.processes.filter((p) => p.crashed)) {
      failures.push(
        `${serve.name} exited on its own (${serve.exitCode ?? serve.exitSignal}):\n${serve.exitReport()}`,
      );
    }
    run.measure("agents", chaosSite.agentSummary());
    run.measure("service warn/error lines", tallySummary(warnings));
    const report = overlap.report(observedProcesses(chaosSite));
    run.measure("engine runs logged", report.handlerRuns);
    run.measure("expired claims taken over", report.takeovers.length);
    if (report.timeouts > 0) run.measure("handler timeouts", report.timeouts);
    failures.push(...overlapFailures(report));
  } finally {
    const keepLogs = failures.length > 0 || process.env.RACKSMITH_CHAOS_KEEP_LOGS === "1";
    failures.push(...(await chaosSite.close({ keepLogs })));
  }
  return { measures, failures };
}

/** The site's processes as the overlap report needs them. */
export function observedProcesses(site: ChaosSite): ObservedProcess[] {
  return site.processes.map((serve) => ({
    name: serve.name,
    processorId: serve.processorId,
    diedAt: serve.killedAt ?? serve.exitedAt,
  }));
}

/** `median 5.1 s · max 7.9 s` of durations in ms. */
export function secondsSummary(durationsMs: readonly number[]): string {
  if (durationsMs.length === 0) return "-";
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const max = sorted.at(-1) as number;
  return `median ${(median / 1000).toFixed(1)} s · max ${(max / 1000).toFixed(1)} s`;
}

/** `12 (error: x ×3 · warn: y ×9)`, the most frequent first. */
function tallySummary(tally: ReadonlyMap<string, number>): string {
  const total = [...tally.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return "0";
  const top = [...tally.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 4)
    .map(([message, count]) => `${message} ×${count}`);
  return `${total} (${top.join(" · ")}${tally.size > 4 ? " · …" : ""})`;
}
