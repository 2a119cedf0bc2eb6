import { randomBytes } from "node:crypto";
import type { MachineDetail, MachineView } from "@racksmith/server";
import type { ChaosForm, ChaosScenario } from "../scenario.js";
import {
  BMC_FAULT_KINDS,
  historyProblems,
  injectRandomBmcFaults,
  runOnSite,
  scanLogsForSecrets,
  scenarioStart,
  siteSecrets,
  skippedWithoutPostgres,
} from "../site/index.js";

/**
 * The sizes of the scenario. The short form (CI) faults 10 %: every kind of fault still lands many times, and a
 * step of fifteen requests goes through whole about one attempt in five rather than one in twenty-five, which
 * took the form from over four minutes to about one. The long form keeps 20 %.
 */
const SIZES: Record<ChaosForm, { hosts: number; rate: number; settledTimeoutMs: number }> = {
  short: { hosts: 6, rate: 0.1, settledTimeoutMs: 1_200_000 },
  long: { hosts: 32, rate: 0.2, settledTimeoutMs: 3_600_000 },
};
/** The service's timeout of one BMC request; a `timeout` fault answers after `TIMEOUT_LATENCY_MS`. */
const REQUEST_TIMEOUT_MS = 2_000;
const TIMEOUT_LATENCY_MS = 3_000;
/**
 * Re-exploration of the fleet: a faulted read leaves a partial report (power, DPU mode, host-facing MAC
 * unknown) that holds the host back until the next exploration, so a flaky site re-explores often.
 */
const EXPLORER_INTERVAL_MS = 5_000;

/**
 * Attempts of a failed BMC step before the host is Failed: what an operator of a flaky site sets
 * (`lifecycle.maxRetries`, default 3). Every fault here is transient, so with enough attempts every host —
 * none has a real defect — must reach Ready; one failed in a BMC step even so is a failure of the scenario.
 * A step such as machine setup makes about fifteen requests, so at 20 % only ~4 % of its attempts go through
 * whole: 25 attempts left one step in three failing on luck alone, 500 leave about one in 10^8.
 */
const BMC_STEP_ATTEMPTS = 500;
const BMC_STEP_RETRY_INTERVAL_MS = 200;

/** The causes of `failed` a faulty BMC brings: a BMC step failed `lifecycle.maxRetries` times in a row. */
const BMC_FAILURE_CAUSES = new Set([
  "machineSetup",
  "biosJob",
  "bootOrder",
  "lockdown",
  "dpuDiscovery",
  "dpuInit",
]);

/**
 * A share of every BMC request faulted (timeouts, 5xx, resets, truncated JSON, expired sessions) during a
 * whole run, ingestion included: every host reaches Ready, and no secret of the site — the site BMC
 * root password, the factory passwords, the credential key — appears in any line the service logged at
 * debug level.
 */
export const bmcFaultsScenario: ChaosScenario = {
  name: "bmc-faults",
  description:
    "a share of BMC requests faulted (10 % short, 20 % long): every host Ready, no secret in any log line",
  async run(options) {
    const start = scenarioStart(options, SIZES);
    if (!start) return skippedWithoutPostgres();
    const { databaseUrl, size, seed, random } = start;
    options.log(`${size.hosts} hosts, ${size.rate * 100} % of BMC requests faulted, seed ${seed}`);
    // Factory passwords of this run only, long enough that finding one in a log cannot be a coincidence.
    const factory = (vendor: string) => ({
      username: "root",
      password: `Chaos-${vendor}-${randomBytes(6).toString("hex")}`,
    });
    return runOnSite(
      { ...options, databaseUrl },
      {
        name: "bmc-faults",
        hosts: size.hosts,
        seed,
        // HPE and Supermicro keep a password per BMC (on its label), carried by the expected machines.
        scenario: {
          credentials: { dell: factory("dell"), lenovo: factory("lenovo"), "nvidia-dpu": factory("dpu") },
        },
        sections: {
          siteExplorer: { intervalMs: EXPLORER_INTERVAL_MS, bmc: { requestTimeoutMs: REQUEST_TIMEOUT_MS } },
          lifecycle: { maxRetries: BMC_STEP_ATTEMPTS, retryIntervalMs: BMC_STEP_RETRY_INTERVAL_MS },
        },
        logLevel: "debug",
      },
      async ({ site, measure, failures }) => {
        measure("hosts", size.hosts);
        const faults = injectRandomBmcFaults(site.fleet, {
          rate: size.rate,
          timeoutLatencyMs: TIMEOUT_LATENCY_MS,
          random,
        });
        const started = Date.now();
        try {
          await site.start();
          await site.register();
          site.startAgents();
          const settled = (host: MachineView) => host.state === "ready" || host.state === "failed";
          // The safety net catching the run is a failure, but the checks below still run on what there is.
          await site
            .waitSettled({ timeoutMs: size.settledTimeoutMs, settled })
            .then(() => measure("s to every host Ready or failed", Math.round((Date.now() - started) / 1000)))
            .catch((error: unknown) => failures.push((error as Error).message));
        } finally {
          faults.stop();
          const stats = faults.stats();
          measure("BMC requests", stats.requests);
          measure(
            "faulted",
            `${stats.faulted} (${((100 * stats.faulted) / Math.max(1, stats.requests)).toFixed(1)} %)`,
          );
          measure("faults by kind", BMC_FAULT_KINDS.map((kind) => `${kind} ${stats[kind]}`).join(" · "));
        }

        const details = await site.details();
        const bad = details.filter(isBad);
        const notIngested = size.hosts - details.length;
        measure("hosts Ready", `${details.filter((host) => host.state === "ready").length}/${size.hosts}`);
        if (notIngested > 0) failures.push(`${notIngested} host(s) never ingested`);
        measure(`hosts failed in a BMC step (${BMC_STEP_ATTEMPTS} attempts)`, bad.length);
        for (const host of details.filter((h) => h.state !== "ready")) {
          failures.push(
            `host ${host.id} ended ${host.lifecycle?.stateLabel ?? host.state}: ${failureOf(host)}`,
          );
        }
        const problems = details.flatMap((host) =>
          historyProblems(host, { endsReady: !isBad(host), noRepeats: false }),
        );
        measure("history problems", problems.length);
        failures.push(...problems.slice(0, 20));

        // Every process's output is in the logs folder; scanned now that the credential key exists too.
        const secrets = await siteSecrets(site.dir, site.fleet);
        const scan = await scanLogsForSecrets(site.logsDir, secrets);
        measure("secrets looked for", secrets.length);
        measure("log lines scanned", scan.lines);
        measure("log lines with a secret", scan.leaks.length);
        const bySource = new Map<string, number>();
        for (const leak of scan.leaks) bySource.set(leak.source, (bySource.get(leak.source) ?? 0) + 1);
        for (const [source, count] of bySource) {
          const example = scan.leaks.find((leak) => leak.source === source);
          failures.push(`${count} log line(s) contain ${source}; e.g. ${example?.line}`);
        }
      },
    );
  },
};

/** Failed with a BMC-step cause: the faults may legitimately do that. */
function isBad(host: MachineDetail): boolean {
  const cause = host.lifecycle?.failure?.cause;
  return host.state === "failed" && typeof cause === "string" && BMC_FAILURE_CAUSES.has(cause);
}

function failureOf(host: MachineDetail): string {
  const failure = host.lifecycle?.failure;
  if (failure) return `${String(failure.cause)} in ${String(failure.failedIn)}: ${String(failure.message)}`;
  const outcome = host.lifecycle?.outcome as
    | { reason?: string; error?: { message?: string } }
    | null
    | undefined;
  return outcome?.reason ?? outcome?.error?.message ?? "no outcome";
}
