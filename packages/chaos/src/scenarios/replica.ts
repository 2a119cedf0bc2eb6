import { MANAGED_HOST_OBJECT_TYPE } from "@racksmith/server";
import type { ChaosForm, ChaosScenario } from "../scenario.js";
import {
  type HeldClaim,
  historyProblems,
  observedProcesses,
  pollUntil,
  runOnSite,
  scenarioStart,
  skippedWithoutPostgres,
  waitFor,
} from "../site/index.js";

/**
 * The sizes of the scenario. `watchMs` is how long after the kill the survivor is watched before the run
 * gives up on it: past the 60 s promise, so the figure is measured, and short enough that the short form fits
 * its budget while leases are long (the long form waits out a default lease).
 */
const SIZES: Record<ChaosForm, { hosts: number; watchMs: number }> = {
  short: { hosts: 24, watchMs: 150_000 },
  long: { hosts: 60, watchMs: 900_000 },
};
/** The promise: the survivor finishes every host within this long of the kill. */
const DEADLINE_MS = 60_000;
/** Safety nets for a stuck run, not speed bounds. */
const CLAIM_TIMEOUT_MS = 300_000;

/**
 * Two replicas of `racksmith serve` (two processes, one schema); the agents report to replica b. Replica a is
 * SIGKILLed while it holds claims: b must finish every host within a minute of the kill. What is measured:
 * the time from the kill to all Ready, and to b's takeover of each claim a held (bounded by the claim lease).
 */
export const replicaScenario: ChaosScenario = {
  name: "replica",
  description: "one of two replicas SIGKILLed while it holds claims: the survivor finishes within a minute",
  async run(options) {
    const start = scenarioStart(options, SIZES);
    if (!start) return skippedWithoutPostgres();
    const { databaseUrl, size, seed } = start;
    options.log(`${size.hosts} hosts, seed ${seed}; the engine keeps its default lease`);
    return runOnSite(
      { ...options, databaseUrl },
      { name: "replica", hosts: size.hosts, seed, replicas: ["a", "b"], logLevel: "debug" },
      async ({ site, overlap, measure, failures, log }) => {
        measure("hosts", size.hosts);
        const a = await site.start("a");
        const b = await site.start("b");
        measure("lease (engine.leaseMs)", String(b.engineConfig?.leaseMs ?? "?"));
        await site.register("b");
        site.startAgents("b");
        const owner = a.processorId;
        if (!owner) throw new Error(`${a.name} did not log its processorId ("state engine started")`);

        // Every host ingested (the explorer's work lock may be a's: the kill must not stop ingestion) and a
        // holding claims of hosts still moving.
        const held = await waitFor(
          async (): Promise<HeldClaim[] | undefined> => {
            const hosts = await site.hosts("b");
            if (hosts.length < size.hosts || hosts.every((host) => host.state === "ready")) return undefined;
            const claims = (await site.database.liveClaims(owner)).filter(
              (claim) => claim.objectType === MANAGED_HOST_OBJECT_TYPE,
            );
            return claims.length > 0 ? claims : undefined;
          },
          {
            what: `every host ingested and replica a holding a managed-host claim`,
            timeoutMs: CLAIM_TIMEOUT_MS,
            everyMs: 100,
            describe: () => site.progress("b"),
          },
        );
        const progress = await site.progress("b");
        await site.kill("a");
        const killedAt = a.killedAt ?? Date.now();
        const heldIds = new Set(held.map((claim) => claim.objectId));
        measure("claims a held at the kill", held.length);
        log(
          `killed ${a.name} at ${progress}, holding ${held.length} claim(s) until ${held
            .map((claim) => claim.leaseExpiresAt.toISOString().slice(11, 19))
            .join(", ")}`,
        );

        // At the deadline: which hosts are not Ready, and is any of them still held by the dead replica?
        const readyAtDeadline = await pollUntil(
          async () => {
            const hosts = await site.hosts("b");
            return hosts.length === size.hosts && hosts.every((host) => host.state === "ready");
          },
          { timeoutMs: Math.max(0, killedAt + DEADLINE_MS - Date.now()), everyMs: 500 },
        );
        const lateHosts = readyAtDeadline
          ? []
          : (await site.hosts("b").catch(() => [])).filter((host) => host.state !== "ready");
        const stillHeld = readyAtDeadline ? [] : await site.database.liveClaims(owner);
        const allReady = readyAtDeadline
          ? true
          : await pollUntil(
              async () => {
                const hosts = await site.hosts("b");
                return hosts.length === size.hosts && hosts.every((host) => host.state === "ready");
              },
              { timeoutMs: Math.max(0, killedAt + size.watchMs - Date.now()), everyMs: 500 },
            );
        const toReady = Date.now() - killedAt;
        measure(
          "s from kill to all Ready",
          allReady ? (toReady / 1000).toFixed(1) : `> ${size.watchMs / 1000} (gave up)`,
        );

        // b's takeovers of the claims a held, from b's log ("took over a claim whose lease expired").
        const takeovers = overlap
          .report(observedProcesses(site))
          .takeovers.filter((t) => t.previousOwner === owner && heldIds.has(t.objectId))
          .map((t) => t.time);
        const rest = held.length - takeovers.length;
        measure(
          "a's claims b took over",
          takeovers.length === 0
            ? `0 of ${held.length}`
            : `${takeovers.length} of ${held.length}${rest > 0 ? ` (${rest} ended before the kill)` : ""}, the last ${((Math.max(...takeovers) - killedAt) / 1000).toFixed(1)} s after it`,
        );

        if (!readyAtDeadline) {
          const blocked = lateHosts.filter((host) => stillHeld.some((claim) => claim.objectId === host.id));
          const summary = `${lateHosts.length} host(s) not Ready ${DEADLINE_MS / 1000} s after the kill (${lateHosts
            .slice(0, 8)
            .map((host) => `${host.id} ${host.state}`)
            .join(", ")})`;
          if (blocked.length > 0 || !allReady) {
            const lease = stillHeld[0]?.leaseExpiresAt;
            failures.push(
              `${summary}; ${blocked.length} of them still claimed by the dead replica a` +
                (lease
                  ? ` (lease until ${((lease.getTime() - killedAt) / 1000).toFixed(0)} s after the kill)`
                  : "") +
                (allReady
                  ? `; all Ready after ${(toReady / 1000).toFixed(1)} s`
                  : `; not all Ready after ${size.watchMs / 1000} s`),
            );
          } else {
            // Not blocked by a: hosts legitimately mid-wait (a power cycle, a retry interval, an agent).
            log(
              `${summary}, none held by the dead replica: mid-wait; all Ready after ${(toReady / 1000).toFixed(1)} s`,
            );
          }
        }
        if (!allReady) return;
        const details = await site.details("b");
        const problems = details.flatMap((host) =>
          historyProblems(host, { endsReady: true, noRepeats: true }),
        );
        measure("history problems", problems.length);
        failures.push(...problems.slice(0, 20));
      },
    );
  },
};
