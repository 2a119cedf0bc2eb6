import type { Kysely } from "kysely";
import { type ErrorCode, toRacksmithError } from "../errors/index.js";
import { childLogger } from "../logging/index.js";
import type { EngineTables } from "./database.js";
import { HandlerTimeoutError, InvalidOutcomeError, ObjectNotLoadedError } from "./errors.js";
import {
  type FinalWriteResult,
  finalWriteLanded,
  keptClaim,
  type StateWrite,
  writeFinal,
} from "./finalWrite.js";
import { completeClaim } from "./queue.js";
import type { Claim, ObjectKey } from "./records.js";
import { describeError, type MachineRuntime, stateLabel } from "./runtime.js";
import type { DeferredWrite, HandlerContext, Outcome, StoredOutcome } from "./types.js";

/** Set by the worker: `abandoned` (shutdown) means write nothing more; the worker releases the claim. */
export interface RunControl {
  abandoned: boolean;
  readonly controller: AbortController;
  /**
   * When the run's work (load and handler) was over, before it wrote its outcome and released its claim: what
   * the worker's "run ended" line reports, since another replica may claim the object as soon as the release
   * commits, before this process gets round to logging.
   */
  workDoneAt?: number;
  /**
   * Asked when a transition is about to be written: whether the run may keep its claim and the worker run the
   * next state at once (no requeue, no new claim: one statement per transition). Absent: never.
   */
  readonly keepClaim?: () => boolean;
}

const MAX_ERROR_MESSAGE = 2_000;
const OUTCOME_KINDS = new Set(["transition", "wait", "doNothing", "deleted"]);

/** Thrown inside the final transaction to roll it back when the write must not happen. */
class StaleWrite extends Error {
  constructor(readonly reason: "version" | "lease") {
    super(`stale write (${reason})`);
  }
}

type HandlerResult =
  | { kind: "returned"; outcome: Outcome }
  | { kind: "threw"; error: unknown }
  | { kind: "aborted" };

/**
 * One claimed object, start to finish: the state comes with the claim; the machine's `load` runs in a
 * short read-only snapshot transaction (or alone, when it is one statement: `loadsInOneStatement`); the
 * handler runs with no transaction open; then one final write re-checks the claim and the state version and
 * writes state, history, outcome and the deferred writes together. Never rejects. Resolves to the claim it kept for the next state's run (see
 * `RunControl.keepClaim`), else undefined.
 */
export async function runClaim(
  rt: MachineRuntime,
  claim: Claim,
  control: RunControl,
): Promise<Claim | undefined> {
  const { machine, metrics, clock } = rt;
  const objectType = machine.objectType;
  const startedAt = clock();
  const { state, version, enteredAt } = claim.current;
  const label = stateLabel(machine, state);
  const logger = childLogger(rt.logger, { objectType, objectId: claim.objectId, state: label });
  metrics.enqueueToStartSeconds.observe({ object_type: objectType }, seconds(startedAt, claim.enqueuedAt));
  if (claim.previousOwner)
    logger.info({ previousOwner: claim.previousOwner }, "took over a claim whose lease expired");
  const fail = (error: unknown) => recordError(rt, claim, label, error, startedAt, control);

  let object: unknown;
  try {
    object = machine.loadsInOneStatement
      ? await machine.load(claim.objectId, rt.database.db)
      : await rt.database.db
          .transaction()
          .setIsolationLevel("repeatable read")
          .setAccessMode("read only")
          .execute((trx) => machine.load(claim.objectId, trx));
  } catch (error) {
    control.workDoneAt = Date.now();
    if (!control.abandoned) await fail(error);
    return;
  }
  if (control.abandoned) return;
  if (object === undefined) {
    control.workDoneAt = Date.now();
    await fail(new ObjectNotLoadedError(objectType, claim.objectId));
    return;
  }

  const deferred: DeferredWrite[] = [];
  const followUps: ObjectKey[] = [];
  let open = true;
  const whileOpen = (what: string) => {
    if (!open) throw new Error(`${objectType} ${claim.objectId}: ${what} called after the handler returned`);
  };
  const context: HandlerContext = {
    id: claim.objectId,
    state,
    version,
    enteredAt,
    timeInStateMs: startedAt.getTime() - enteredAt.getTime(),
    signal: control.controller.signal,
    logger,
    defer: (write) => {
      whileOpen("defer()");
      deferred.push(write);
    },
    enqueue: (type, id) => {
      whileOpen("enqueue()");
      followUps.push({ objectType: type, objectId: id });
    },
  };

  const { handlerTimeoutMs } = rt.config;
  // The error (and its stack) is only built when the timeout fires; handlers see it as `signal.reason`.
  const timer = setTimeout(
    () =>
      control.controller.abort(new HandlerTimeoutError(objectType, claim.objectId, label, handlerTimeoutMs)),
    handlerTimeoutMs,
  );
  const handling = Promise.resolve()
    .then(() => machine.handle({ id: claim.objectId, state, object, context }))
    .then(
      (outcome): HandlerResult => ({ kind: "returned", outcome }),
      (error: unknown): HandlerResult => ({ kind: "threw", error }),
    );
  const result = await Promise.race([handling, aborted(control.controller.signal)]);
  clearTimeout(timer);
  open = false;
  control.workDoneAt = Date.now();
  if (control.abandoned) return;

  if (result.kind === "aborted") {
    metrics.errors.inc({
      object_type: objectType,
      state: label,
      code: "handler_timeout" satisfies ErrorCode,
    });
    logger.warn({ timeoutMs: handlerTimeoutMs }, "handler timed out; its result is discarded");
    // Keep the claim (and this worker's slot) until the handler really stops, so no second handler starts
    // for this object while the first may still be doing I/O.
    await handling;
    control.workDoneAt = Date.now();
    if (!control.abandoned) await settleClaim(rt, claim, false);
    return;
  }
  if (result.kind === "threw") {
    await fail(result.error);
    return;
  }
  const problem = invalidOutcome(result.outcome);
  if (problem) {
    await fail(new InvalidOutcomeError(objectType, label, problem));
    return;
  }

  const outcome = result.outcome;
  const now = clock();
  const write = stateWrite(rt, outcome, now);
  const keep = outcome.kind === "transition" && control.keepClaim?.() === true;
  const keepClaimMs = keep ? rt.config.leaseMs : undefined;
  const recheckAt = recheckTime(rt, outcome, now);
  const check = (written: FinalWriteResult) => {
    if (!written.held) throw new StaleWrite("lease");
    if (!written.written) throw new StaleWrite("version");
  };
  const finalWrite = async (db: Kysely<EngineTables>) =>
    check(await writeFinal(db, claim, { expectedVersion: version, write, now, keepClaimMs, recheckAt }));
  // One statement is atomic by itself (and may share a batch with other runs' writes); deferred writes
  // need a transaction around it.
  const batched = deferred.length === 0 && write.kind !== "delete";
  try {
    if (batched)
      check(await rt.writes.write({ claim, expectedVersion: version, write, now, keepClaimMs, recheckAt }));
    else if (deferred.length === 0) await finalWrite(rt.database.db);
    else {
      await rt.database.db.transaction().execute(async (trx) => {
        await finalWrite(trx);
        for (const deferredWrite of deferred) await deferredWrite(trx);
      });
    }
  } catch (error) {
    if (error instanceof StaleWrite) {
      countStale(rt, claim, label, error.reason);
      // A moved version re-runs at once on the fresh state; a lost claim belongs to someone else now.
      if (error.reason === "version") await settleClaim(rt, claim, true);
      return;
    }
    // No answer may still be a commit (the connection lost right after it): the write's own traces tell (the
    // batcher has looked already). Otherwise a deferred write (or the database) failed and nothing was
    // written: record it as the outcome.
    const landed =
      !batched &&
      (await finalWriteLanded(rt.database.db, claim, { expectedVersion: version, write, now }).catch(
        () => false,
      ));
    if (!landed) {
      await recordError(rt, claim, label, error, startedAt, control, { writeUnanswered: true });
      return;
    }
  }

  metrics.handlerSeconds.observe(
    { object_type: objectType, state: label, outcome: outcome.kind },
    seconds(now, startedAt),
  );
  if (outcome.kind === "transition") {
    const to = stateLabel(machine, outcome.next);
    metrics.transitions.inc({ object_type: objectType, from: label, to });
    metrics.timeInStateSeconds.observe({ object_type: objectType, state: label }, seconds(now, enteredAt));
    logger.info({ from: label, to, version: version + 1 }, "state transition");
  } else if (outcome.kind === "wait") {
    logger.debug({ reason: outcome.reason }, "waiting");
  } else if (outcome.kind === "deleted") {
    logger.info({}, "object deleted");
  }
  for (const next of followUps) {
    rt.enqueue(next.objectType, next.objectId).catch((error: unknown) => {
      logger.warn({ target: next, error: describeError(error) }, "follow-up enqueue failed");
    });
  }
  return keep && outcome.kind === "transition" ? keptClaim(claim, outcome.next, version, now) : undefined;
}

/** When a waiting object is looked at again if nothing enqueues it first; undefined: the next periodic run. */
function recheckTime(rt: MachineRuntime, outcome: Outcome, now: Date): Date | undefined {
  if (outcome.kind !== "wait") return undefined;
  const after = outcome.recheckAfterMs ?? rt.config.waitRecheckMs;
  return after > 0 ? new Date(now.getTime() + after) : undefined;
}

function stateWrite(rt: MachineRuntime, outcome: Outcome, now: Date): StateWrite {
  const at = now.toISOString();
  switch (outcome.kind) {
    case "transition":
      return {
        kind: "transition",
        next: outcome.next,
        outcome: { kind: "transition", at },
        historyLimit: rt.config.historyLimit,
      };
    case "deleted":
      return { kind: "delete" };
    case "wait":
      return { kind: "outcome", outcome: { kind: "wait", reason: outcome.reason, at } };
    case "doNothing":
      return { kind: "outcome", outcome: { kind: "doNothing", at } };
  }
}

/** Stores an error outcome (state kept) and ends the claim; the object is retried on the next period. */
async function recordError(
  rt: MachineRuntime,
  claim: Claim,
  label: string,
  error: unknown,
  startedAt: Date,
  control: RunControl,
  options: { writeUnanswered?: boolean } = {},
): Promise<void> {
  const objectType = rt.machine.objectType;
  const failure = toRacksmithError(error);
  const message = failure.message.slice(0, MAX_ERROR_MESSAGE);
  const now = rt.clock();
  rt.metrics.errors.inc({ object_type: objectType, state: label, code: failure.code });
  rt.metrics.handlerSeconds.observe(
    { object_type: objectType, state: label, outcome: "error" },
    seconds(now, startedAt),
  );
  rt.logger.warn(
    { objectType, objectId: claim.objectId, state: label, code: failure.code, message },
    "handler failed; state kept",
  );
  if (control.abandoned) return;
  const outcome: StoredOutcome = {
    kind: "error",
    error: { code: failure.code, message },
    at: now.toISOString(),
  };
  let written: FinalWriteResult;
  try {
    written = await rt.writes.write({
      claim,
      expectedVersion: claim.current.version,
      write: { kind: "outcome", outcome },
      now,
    });
  } catch (writeError) {
    rt.logger.error(
      { objectType, objectId: claim.objectId, error: describeError(writeError) },
      "could not record the error outcome; the object is retried after its lease",
    );
    return;
  }
  if (!written.held && options.writeUnanswered) {
    // The final write got no answer and the claim has ended since: that write most likely committed (nobody
    // takes a claim before its lease expires), though it could not be found; not a claim lost mid-run.
    rt.logger.warn(
      { objectType, objectId: claim.objectId, state: label },
      "claim ended after a final write without an answer; the write most likely committed",
    );
  } else if (!written.held) countStale(rt, claim, label, "lease");
  else if (!written.written) {
    countStale(rt, claim, label, "version");
    await settleClaim(rt, claim, true);
  }
}

function countStale(rt: MachineRuntime, claim: Claim, label: string, reason: "version" | "lease"): void {
  rt.metrics.staleWrites.inc({ object_type: rt.machine.objectType, reason });
  rt.logger.warn(
    { objectType: rt.machine.objectType, objectId: claim.objectId, state: label, reason },
    reason === "version"
      ? "state changed while the handler ran; its result is discarded"
      : "claim lost while the handler ran; its result is discarded",
  );
}

/** Ends a claim without writing any state. */
async function settleClaim(rt: MachineRuntime, claim: Claim, runAgain: boolean): Promise<void> {
  try {
    await completeClaim(rt.database.db, claim, { runAgain, now: rt.clock() });
  } catch (error) {
    rt.logger.warn(
      { objectType: claim.objectType, objectId: claim.objectId, error: describeError(error) },
      "could not end the claim",
    );
  }
}

function invalidOutcome(outcome: Outcome): string | undefined {
  const candidate = outcome as { kind?: unknown; next?: { state?: unknown } } | null | undefined;
  if (!candidate || typeof candidate.kind !== "string" || !OUTCOME_KINDS.has(candidate.kind)) {
    return "returned no outcome (use transition, wait, doNothing or deleted)";
  }
  if (candidate.kind === "transition" && typeof candidate.next?.state !== "string") {
    return "returned a transition to a state without a string `state` tag";
  }
  const recheck = (outcome as { recheckAfterMs?: unknown }).recheckAfterMs;
  if (
    candidate.kind === "wait" &&
    recheck !== undefined &&
    !(Number.isSafeInteger(recheck) && Number(recheck) >= 0)
  ) {
    return "returned a wait whose recheckAfterMs is not a whole number of milliseconds ≥ 0";
  }
  return undefined;
}

function aborted(signal: AbortSignal): Promise<HandlerResult> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ kind: "aborted" });
    else signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
  });
}

function seconds(later: Date, earlier: Date): number {
  return Math.max(0, later.getTime() - earlier.getTime()) / 1000;
}
