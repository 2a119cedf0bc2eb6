import { claimDue } from "./queue.js";
import type { Claim } from "./records.js";
import { type RunControl, runClaim } from "./runClaim.js";
import { describeError, type MachineRuntime } from "./runtime.js";
import { WakeSignal, withJitter } from "./wakeSignal.js";

interface ActiveRun {
  /** The claim and control of the run going on now (a chain of runs moves them on). */
  claim: Claim;
  control: RunControl;
  readonly done: Promise<void>;
}

/**
 * How many runs of one object may follow each other on one claim (each after a transition) before the claim
 * goes back to the queue, so objects waiting in the queue get a slot too.
 */
export const MAX_CHAINED_RUNS = 16;

const POLL_JITTER = 0.2;

/**
 * The claim loop of one object type in this process: keeps up to `concurrency` handlers running, claims as
 * soon as it is woken (NOTIFY, a finished run) and otherwise polls.
 */
export class TypeWorker {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly wake = new WakeSignal();
  private stopping = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly rt: MachineRuntime) {}

  start(): void {
    this.loop ??= this.claimLoop();
  }

  /** The claims of the handlers running now (the lease heartbeat renews them). */
  runningClaims(): Claim[] {
    return [...this.runs.values()].map((run) => run.claim);
  }

  /** Due work may be waiting (a NOTIFY for this type arrived). */
  poke(): void {
    this.wake.fire();
  }

  /**
   * Stops claiming, lets running handlers finish for up to `graceMs`, then abandons the rest (aborting
   * their signal; nothing of theirs is written) and returns their claims for the caller to release.
   */
  async stop(graceMs: number): Promise<Claim[]> {
    this.stopping = true;
    this.wake.fire();
    await this.loop;
    const pending = [...this.runs.values()];
    if (pending.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(pending.map((run) => run.done)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    }
    const abandoned = [...this.runs.values()];
    for (const run of abandoned) {
      run.control.abandoned = true;
      run.control.controller.abort(new Error("engine stopping"));
    }
    return abandoned.map((run) => run.claim);
  }

  private async claimLoop(): Promise<void> {
    const { config } = this.rt;
    while (!this.stopping) {
      const free = config.concurrency - this.runs.size;
      let claimed = 0;
      if (free > 0) {
        this.wake.reset();
        try {
          const claims = await claimDue(this.rt.database.db, {
            objectType: this.rt.machine.objectType,
            owner: this.rt.owner,
            now: this.rt.clock(),
            leaseMs: config.leaseMs,
            limit: free,
            exclude: [...this.runs.keys()],
          });
          claimed = claims.length;
          for (const claim of claims) this.launch(claim);
        } catch (error) {
          this.rt.logger.warn(
            {
              objectType: this.rt.machine.objectType,
              error: describeError(error),
            },
            "claiming due objects failed; retrying after the poll interval",
          );
        }
      }
      if (this.stopping) break;
      // A full batch means more may be due: go again at once (or when a slot frees up).
      if (free === 0 || claimed < free) await this.wake.wait(withJitter(config.pollIntervalMs, POLL_JITTER));
    }
  }

  private launch(claim: Claim): void {
    const objectType = this.rt.machine.objectType;
    const current = { claim, control: this.newControl(0) };
    const done = this.runChain(current).finally(() => {
      if (this.runs.get(claim.objectId) === run) this.runs.delete(claim.objectId);
      this.rt.metrics.inFlight.set({ object_type: objectType }, this.runs.size);
      this.wake.fire();
    });
    const run: ActiveRun = Object.assign(current, { done });
    this.runs.set(claim.objectId, run);
    this.rt.metrics.inFlight.set({ object_type: objectType }, this.runs.size);
  }

  /** Runs the claimed object, then each next state on the claim its transition kept, one run at a time. */
  private async runChain(run: { claim: Claim; control: RunControl }): Promise<void> {
    for (let chained = 1; ; chained++) {
      const { claim, control } = run;
      // A run's start and end, so a log reader can prove no two runs of one object ever overlapped.
      const fields = {
        objectType: claim.objectType,
        objectId: claim.objectId,
        owner: claim.owner,
        claim: claim.claimCount,
      };
      this.rt.logger.debug(fields, "run started");
      const kept = await runClaim(this.rt, claim, control);
      this.rt.logger.debug(
        control.workDoneAt === undefined ? fields : { ...fields, workDoneAt: control.workDoneAt },
        "run ended",
      );
      if (!kept) return;
      run.claim = kept;
      run.control = this.newControl(chained);
    }
  }

  /** A run's control; its transition may keep the claim while the worker runs on and the chain is short. */
  private newControl(chained: number): RunControl {
    const control: RunControl = {
      abandoned: false,
      controller: new AbortController(),
      keepClaim: () => !this.stopping && !control.abandoned && chained < MAX_CHAINED_RUNS - 1,
    };
    return control;
  }
}
