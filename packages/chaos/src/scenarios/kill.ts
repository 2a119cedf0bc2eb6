import type { ChaosForm, ChaosScenario } from "../scenario.js";
import {
  historyProblems,
  randomDelay,
  runOnSite,
  scenarioStart,
  secondsSummary,
  skippedWithoutPostgres,
  waitFor,
} from "../site/index.js";

/** The sizes of the scenario: `short` takes a few minutes on 2 cores. */
const SIZES: Record<ChaosForm, { hosts: number; kills: number; gapMs: readonly [number, number] }> = {
  short: { hosts: 24, kills: 20, gapMs: [500, 3_000] },
  long: { hosts: 60, kills: 100, gapMs: [500, 6_000] },
};
/** Safety nets for a stuck run, not speed bounds. */
const FIRST_HOST_TIMEOUT_MS = 180_000;
const INGESTED_TIMEOUT_MS = 300_000;
const READY_TIMEOUT_MS = 600_000;

/**
 * `racksmith serve` SIGKILLed at random moments during a simulated-site run and restarted each time, on
 * PostgreSQL: every host still reaches Ready, each history is versions 1..n with no duplicated or invalid
 * transition, and no two handlers of one host ever ran at once.
 */
export const killScenario: ChaosScenario = {
  name: "kill",
  description:
    "racksmith serve SIGKILLed at random moments and restarted: every host Ready, histories intact",
  async run(options) {
    const start = scenarioStart(options, SIZES);
    if (!start) return skippedWithoutPostgres();
    const { databaseUrl, size, seed, random } = start;
    options.log(`${size.hosts} hosts, ${size.kills} kills, seed ${seed}`);
    return runOnSite(
      { ...options, databaseUrl },
      { name: "kill", hosts: size.hosts, seed, logLevel: "debug" },
      async ({ site, measure, failures, log }) => {
        measure("hosts", size.hosts);
        await site.start();
        await site.register();
        site.startAgents();
        // Kill while hosts move: the first kill right after the first ingestion (exploration and ingestion under
        // way, the explorer's work lock held by the process killed), the others once every host is ingested —
        // a killed process's explorer lock holds exploration back for a whole `siteExplorer.intervalMs`, so
        // kills every few seconds would otherwise keep most hosts out of the lifecycle the kills are for.
        await waitFor(async () => (await site.hosts()).length > 0, {
          what: "the first managed host",
          timeoutMs: FIRST_HOST_TIMEOUT_MS,
        });
        let killsWhileMoving = 0;
        const restarts: number[] = [];
        for (let kill = 1; kill <= size.kills; kill++) {
          if (kill === 2) {
            const waited = Date.now();
            await waitFor(async () => (await site.hosts()).length === size.hosts, {
              what: `${size.hosts} managed hosts`,
              timeoutMs: INGESTED_TIMEOUT_MS,
              describe: () => site.progress(),
            });
            log(
              `every host ingested ${((Date.now() - waited) / 1000).toFixed(1)} s after the first kill's restart`,
            );
          }
          await randomDelay(size.gapMs[0], size.gapMs[1], random);
          // A service slow to answer on a busy machine is asked again, not taken for a finished run.
          const hosts = await waitFor(() => site.hosts(), { what: "the managed hosts", timeoutMs: 60_000 });
          const moving = hosts.length < size.hosts || hosts.some((host) => host.state !== "ready");
          if (moving) killsWhileMoving++;
          const progress = await site.progress();
          await site.kill();
          const restart = Date.now();
          const serve = await site.start();
          restarts.push(Date.now() - restart);
          log(
            `kill ${kill}/${size.kills} at ${progress}; ${serve.name} up in ${((Date.now() - restart) / 1000).toFixed(1)} s`,
          );
        }
        const lastKill = Date.now();
        measure("kills", size.kills);
        measure("kills while hosts moved", killsWhileMoving);
        measure("restart", secondsSummary(restarts));
        // How many kills land mid-run depends on how fast this machine is (a fast one finishes between kills):
        // it is measured, not required — but a run no kill interrupted tested nothing.
        if (killsWhileMoving === 0) {
          failures.push(`none of the ${size.kills} kills came while hosts moved: the run tested nothing`);
        }

        await site.waitSettled({ timeoutMs: READY_TIMEOUT_MS });
        measure("s from last kill to all Ready", Math.round((Date.now() - lastKill) / 1000));
        const details = await site.details();
        measure(
          "transitions",
          details.reduce((sum, host) => sum + host.history.length - 1, 0),
        );
        // One DPU per host and no injected failure: no state may follow itself.
        const problems = details.flatMap((host) =>
          historyProblems(host, { endsReady: true, noRepeats: true }),
        );
        measure("history problems", problems.length);
        failures.push(...problems.slice(0, 20));
      },
    );
  },
};
