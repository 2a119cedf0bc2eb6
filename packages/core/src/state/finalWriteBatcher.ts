import type { Kysely } from "kysely";
import type { EngineTables } from "./database.js";
import { type FinalWriteResult, finalWriteLanded, writeFinal } from "./finalWrite.js";
import { type BatchedWrite, writeFinalBatch } from "./finalWriteBatch.js";

interface Pending {
  write: BatchedWrite;
  resolve: (result: FinalWriteResult) => void;
  reject: (error: unknown) => void;
}

/** Rows in one batch statement at most. */
export const MAX_WRITE_BATCH = 64;

/**
 * Group commit for one object type's final writes: a write asked for while none is in flight goes at once;
 * the writes asked for while one is in flight wait for it and then go together as one statement (one round
 * trip, one commit). An idle engine thus writes with no added latency, a busy one in batches as large as
 * the runs that finished during one write. A batch that fails as a whole (a deadlock with another statement,
 * say) is retried one write at a time, so each run gets its own result or error. A write that got no answer, or
 * found its claim gone, is looked for before it is reported so: a commit whose answer was lost with the
 * connection has ended the claim, and is not a claim lost to another run.
 */
export class FinalWriteBatcher {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly statements: FinalWriteStatements) {}

  write(write: BatchedWrite): Promise<FinalWriteResult> {
    return new Promise<FinalWriteResult>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_WRITE_BATCH);
        await this.send(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async send(batch: Pending[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const results = await this.statements.many(batch.map((pending) => pending.write));
        for (const [index, pending] of batch.entries()) pending.resolve(results[index] as FinalWriteResult);
        return;
      } catch {
        // Nothing of the batch was written (one statement): each write on its own says what is wrong.
      }
    }
    await Promise.all(batch.map((pending) => this.sendOne(pending)));
  }

  private async sendOne({ write, resolve, reject }: Pending): Promise<void> {
    let result: FinalWriteResult | undefined;
    let failure: unknown;
    try {
      result = await this.statements.one(write);
    } catch (error) {
      failure = error;
    }
    if (result?.held) return resolve(result);
    if (await this.statements.landed(write).catch(() => false)) return resolve({ held: true, written: true });
    if (result) resolve(result);
    else reject(failure);
  }
}

/**
 * The statements behind the batcher: one run's final write, several runs' as one statement, and whether a
 * write is in the database (`finalWriteLanded`).
 */
export interface FinalWriteStatements {
  one(write: BatchedWrite): Promise<FinalWriteResult>;
  many(writes: readonly BatchedWrite[]): Promise<FinalWriteResult[]>;
  landed(write: BatchedWrite): Promise<boolean>;
}

/** The final-write statements of one object type on `db`. */
export function finalWriteStatements(
  db: Kysely<EngineTables>,
  objectType: string,
  historyLimit: number,
): FinalWriteStatements {
  return {
    one: (write) =>
      writeFinal(db, write.claim, {
        expectedVersion: write.expectedVersion,
        write: write.write,
        now: write.now,
        ...(write.keepClaimMs === undefined ? {} : { keepClaimMs: write.keepClaimMs }),
        ...(write.recheckAt === undefined ? {} : { recheckAt: write.recheckAt }),
      }),
    many: (writes) => writeFinalBatch(db, objectType, writes, historyLimit),
    landed: (write) => finalWriteLanded(db, write.claim, write),
  };
}
