import type { ChaosForm, ChaosScenario } from "../scenario.js";
import {
  historyProblems,
  randomDelay,
  runOnSite,
  scenarioStart,
  skippedWithoutPostgres,
  waitFor,
} from "../site/index.js";

/**
 * The sizes of the scenario: `short` takes a couple of minutes on 2 cores. The short form's drops come close
 * together: its 24 hosts can all be Ready within 6 s of the first one's ingestion on a quick machine.
 */
const SIZES: Record<ChaosForm, { hosts: number; drops: number; gapMs: readonly [number, number] }> = {
  short: { hosts: 24, drops: 10, gapMs: [200, 1_000] },
  long: { hosts: 60, drops: 40, gapMs: [500, 2_500] },
};
/**
 * Drops that must come while hosts move (drops stop once every host is Ready). How many do depends on the
 * machine's speed, so it is measured; fewer than this tested too little.
 */
const MIN_DROPS_WHILE_MOVING = 3;
/** Safety nets for a stuck run, not speed bounds. */
const FIRST_HOST_TIMEOUT_MS = 180_000;
const READY_TIMEOUT_MS = 480_000;

/**
 * Every PostgreSQL connection of the service (its pool and its LISTEN connection, found by the
 * `application_name` its URL sets) terminated at random moments during a run: the service never exits (the
 * same process is alive at the end, never restarted) and every host reaches Ready with its history intact.
 */
export const pgDropScenario: ChaosScenario = {
  name: "pg-drop",
  description:
    "the service's PostgreSQL connections terminated during a run: it never exits, every host Ready",
  async run(options) {
    const start = scenarioStart(options, SIZES);
    if (!start) return skippedWithoutPostgres();
    const { databaseUrl, size, seed, random } = start;
    options.log(`${size.hosts} hosts, ${size.drops} connection drops, seed ${seed}`);
    return runOnSite(
      { ...options, databaseUrl },
      {
        name: "pg-drop",
        hosts: size.hosts,
        seed,
        logLevel: "debug",
      },
      async ({ site, measure, failures, log }) => {
        measure("hosts", size.hosts);
        const serve = await site.start();
        await site.register();
        site.startAgents();
        await waitFor(async () => (await site.hosts()).length > 0, {
          what: "the first managed host",
          timeoutMs: FIRST_HOST_TIMEOUT_MS,
        });
        let terminated = 0;
        let emptyDrops = 0;
        // Every drop comes while hosts move: the loop ends once they are all Ready.
        let drops = 0;
        for (let drop = 1; drop <= size.drops && serve.alive; drop++) {
          await randomDelay(size.gapMs[0], size.gapMs[1], random);
          if (!serve.alive) break;
          // A service slow to answer right after a drop is asked again, not taken for a finished run.
          const hosts = await waitFor(() => site.hosts(), { what: "the managed hosts", timeoutMs: 60_000 });
          if (hosts.length === size.hosts && hosts.every((host) => host.state === "ready")) {
            log(`every host Ready after ${drops} drop(s): no more drops`);
            break;
          }
          const count = await site.database.terminate("a");
          drops++;
          terminated += count;
          if (count === 0) emptyDrops++;
          log(`drop ${drop}/${size.drops}: ${count} connection(s) of ${serve.name} terminated`);
        }
        const lastDrop = Date.now();
        measure("drops while hosts moved", drops);
        if (drops < MIN_DROPS_WHILE_MOVING) {
          failures.push(
            `only ${drops} drop(s) came while hosts moved (at least ${MIN_DROPS_WHILE_MOVING} must): the run ended too soon to test them (more hosts?)`,
          );
        }
        measure("connections terminated", terminated);
        if (emptyDrops > 0) measure("drops with no connection open", emptyDrops);
        if (!serve.alive) {
          // runOnSite reports the crash with its last lines; no restart: the promise is that it never exits.
          measure("service alive at the end", `no: exited after drop ${drops}`);
          return;
        }

        await site.waitSettled({ timeoutMs: READY_TIMEOUT_MS });
        measure("s from last drop to all Ready", Math.round((Date.now() - lastDrop) / 1000));
        measure("service alive at the end", serve.alive ? "yes" : "no");
        measure("service processes", site.processes.length);
        const details = await site.details();
        const problems = details.flatMap((host) =>
          historyProblems(host, { endsReady: true, noRepeats: true }),
        );
        measure("history problems", problems.length);
        failures.push(...problems.slice(0, 20));
        if (!serve.alive)
          failures.push(`${serve.name} exited after the run (${serve.exitCode ?? serve.exitSignal})`);
      },
    );
  },
};
