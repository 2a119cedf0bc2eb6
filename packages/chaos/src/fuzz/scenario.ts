import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ChaosForm, ChaosScenario, ScenarioResult } from "../scenario.js";
import { runBounded } from "./concurrency.js";
import { grpcSender } from "./grpc.js";
import { type Operation, walkOpenApi } from "./openapi.js";
import { reflect } from "./reflection.js";
import { failureLines } from "./report.js";
import { restSender } from "./rest.js";
import { type ScheduledCase, scheduleCase } from "./schedule.js";
import { type FuzzTarget, startFuzzTarget } from "./site.js";
import { Tally } from "./tally.js";
import { harvestVocabulary } from "./vocabulary.js";

/** How much a form sends; a fixed seed per form makes a run replayable (printed at the start). */
const PLANS: Record<ChaosForm, { seed: number; requests: number }> = {
  short: { seed: 0x5eed_0001, requests: 10_000 },
  long: { seed: 0x5eed_0002, requests: 100_000 },
};
const CONCURRENCY = 16;
/** No answer within this is a hang. */
const TIMEOUT_MS = 10_000;
const FAILURE_LINES = 40;
/** Hung cases replayed alone after the run, and the deadline they get then. */
const MAX_REPLAYS = 24;
const REPLAY_TIMEOUT_MS = 30_000;

export const fuzzScenario: ChaosScenario = {
  name: "fuzz",
  description:
    "hostile REST requests (from /openapi.json) and gRPC calls (from server reflection) against a real service",
  run: async ({ form, log }): Promise<ScenarioResult> => {
    const plan = PLANS[form];
    log(
      `seed ${plan.seed} (0x${plan.seed.toString(16)}), ${plan.requests} requests, ${CONCURRENCY} at a time`,
    );
    const target = await startFuzzTarget({ hosts: 2, waitMs: 60_000, log });
    try {
      return await fuzz(target, plan, log);
    } finally {
      await target.stop();
    }
  },
};

async function fuzz(
  target: Pick<FuzzTarget, "url" | "grpcAddress" | "token">,
  plan: { seed: number; requests: number },
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const { url, grpcAddress } = target;
  const authorization = `Bearer ${target.token}`;
  const document: unknown = await (await fetch(`${url}/openapi.json`)).json();
  const { operations, components } = walkOpenApi(document);
  const declared = operations.filter((op) => op.body?.source === "requestBody").length;
  const bodied = operations.filter((op) => op.body).length;
  log(
    `openapi: ${operations.length} operations, ${bodied} with a body (${declared} declared by requestBody)`,
  );
  const vocabulary = harvestVocabulary(await knownAnswers(url, operations, authorization), {
    objectType: ["managed-host"],
    path: ["/"],
  });
  const api = await reflect(grpcAddress);
  log(
    `reflection: ${api.services.length} services, ${api.methods.length} unary methods (${api.skipped.length} streaming skipped)`,
  );

  const tally = new Tally();
  const rest = restSender(url, { connections: CONCURRENCY, timeoutMs: TIMEOUT_MS, authorization });
  const grpc = grpcSender(grpcAddress, { timeoutMs: TIMEOUT_MS, authorization });
  const input = {
    seed: plan.seed,
    operations,
    components,
    methods: api.methods,
    lookup: api.lookup,
    vocabulary,
  };
  const hung: ScheduledCase[] = [];
  const started = Date.now();
  // The service and the fuzzer share this process: a long event-loop stall shows a hang may be starvation.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  try {
    await runBounded(
      plan.requests,
      CONCURRENCY,
      async (index) => {
        const scheduled = scheduleCase(index, input);
        if (!scheduled) return;
        const outcome = await (scheduled.protocol === "rest"
          ? rest.send(scheduled.rest)
          : grpc.send(scheduled.grpc));
        tally.record(scheduled.target, scheduled.protocol, scheduled.description, outcome);
        // The first hangs of each route/method are replayed alone after the run.
        if (outcome.kind === "hang" && hung.filter((h) => h.target === scheduled.target).length < 2)
          hung.push(scheduled);
      },
      (done) => {
        if (done % Math.max(1, Math.floor(plan.requests / 10)) === 0)
          log(
            `${done}/${plan.requests} sent (${Math.round(done / ((Date.now() - started) / 1000))}/s), ${tally.hangs} hang(s)`,
          );
      },
    );
  } finally {
    loopDelay.disable();
    await rest.close();
    grpc.close();
  }
  await replayAlone(hung.slice(0, MAX_REPLAYS), target, authorization, tally, log);
  const alive = await stillServing(url);

  const failures = tally.failures();
  for (const drop of tally.droppedConnections().slice(0, 10))
    log(`note: ${drop.target} → ${drop.answer} ×${drop.count}, e.g. ${drop.examples[0] ?? ""}`);
  log(`gRPC statuses: ${[...tally.grpcByCode].map(([name, count]) => `${name} ${count}`).join(", ")}`);
  const lines = failureLines(failures).map((line) => line.text);
  const reportFile = join(tmpdir(), `racksmith-fuzz-${plan.seed}.json`);
  await writeFile(
    reportFile,
    JSON.stringify({ seed: plan.seed, failures, dropped: tally.droppedConnections() }, null, 2),
  );
  log(`every offending input: ${reportFile}`);
  if (lines.length > FAILURE_LINES)
    lines.splice(FAILURE_LINES, Infinity, `… and ${lines.length - FAILURE_LINES} more (see ${reportFile})`);
  if (!alive) lines.push("the service stopped answering /healthz after the run");
  const grpcInternal = tally.count(tally.grpcByCode, "INTERNAL");
  return {
    measures: [
      { measure: "seed", value: plan.seed },
      {
        measure: "requests sent (REST/gRPC)",
        value: `${tally.restSent + tally.grpcSent} (${tally.restSent}/${tally.grpcSent})`,
      },
      {
        measure: "REST 2xx/4xx",
        value: `${tally.count(tally.restByClass, "2xx")}/${tally.count(tally.restByClass, "4xx")}`,
      },
      { measure: "REST 5xx", value: tally.count(tally.restByClass, "5xx") },
      { measure: "gRPC INTERNAL", value: grpcInternal },
      { measure: "gRPC UNKNOWN", value: tally.count(tally.grpcByCode, "UNKNOWN") },
      { measure: "hangs", value: tally.hangs },
      { measure: "dropped connections", value: tally.dropped },
      {
        measure: "event-loop delay p99/max (ms)",
        value: `${Math.round(loopDelay.percentile(99) / 1e6)}/${Math.round(loopDelay.max / 1e6)}`,
      },
      { measure: "routes covered", value: `${tally.routesAnswered.size}/${operations.length}` },
      { measure: "methods covered", value: `${tally.methodsAnswered.size}/${api.methods.length}` },
      { measure: "failure kinds (route/method × answer)", value: failures.length },
    ],
    failures: lines,
  };
}

/**
 * Sends each hung case again, alone, with a longer deadline: a hang that answers alone points at load (the
 * fuzzer and the service share a process and two cores), one that hangs again at the service.
 */
async function replayAlone(
  cases: readonly ScheduledCase[],
  target: Pick<FuzzTarget, "url" | "grpcAddress">,
  authorization: string,
  tally: Tally,
  log: (line: string) => void,
): Promise<void> {
  if (cases.length === 0) return;
  const rest = restSender(target.url, { connections: 1, timeoutMs: REPLAY_TIMEOUT_MS, authorization });
  const grpc = grpcSender(target.grpcAddress, { timeoutMs: REPLAY_TIMEOUT_MS, authorization });
  try {
    for (const scheduled of cases) {
      const started = Date.now();
      const outcome = await (scheduled.protocol === "rest"
        ? rest.send(scheduled.rest)
        : grpc.send(scheduled.grpc));
      const answer =
        outcome.kind === "rest"
          ? `HTTP ${outcome.status}`
          : outcome.kind === "grpc"
            ? outcome.codeName
            : outcome.kind === "hang"
              ? `hung again (${REPLAY_TIMEOUT_MS / 1000} s)`
              : outcome.kind;
      const note = `${answer} in ${Date.now() - started} ms`;
      log(`replayed a hang alone: ${scheduled.target} ${scheduled.description} → ${note}`);
      tally.annotate(scheduled.target, "HANG", note);
    }
  } finally {
    await rest.close();
    grpc.close();
  }
}

/**
 * JSON answers of the parameterless GET routes and the managed hosts: the source of real ids. Not the
 * tokens': a case revoking the fuzzer's own token would turn the rest of the run into 401s.
 */
async function knownAnswers(
  url: string,
  operations: readonly Operation[],
  authorization: string,
): Promise<unknown[]> {
  const paths = operations
    .filter((op) => op.method === "GET" && op.pathParams.length === 0 && op.path.startsWith("/api/"))
    .filter((op) => !op.path.startsWith("/api/v1/auth/"))
    .map((op) => op.path);
  const answers: unknown[] = [];
  for (const path of [...paths, "/api/v1/objects/managed-host"]) {
    const response = await fetch(`${url}${path}`, { headers: { authorization } });
    if (/json/.test(response.headers.get("content-type") ?? "")) answers.push(await response.json());
    else await response.body?.cancel();
  }
  return answers;
}

async function stillServing(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) })).ok;
  } catch {
    return false;
  }
}
