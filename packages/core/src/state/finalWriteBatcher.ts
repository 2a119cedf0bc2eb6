import type { Kysely } from "kysely";
import type { EngineTables } from "./database.js";
import { type FinalWriteResult, writeFinal } from "./finalWrite.js";
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
 * say) is retried one write at a time, so each run gets its own result or error.
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
    await Promise.all(
      batch.map(({ write, resolve, reject }) => this.statements.one(write).then(resolve, reject)),
    );
  }
}

/** The statements behind the batcher: one run's final write, and several runs' as one statement. */
export interface FinalWriteStatements {
  one(write: BatchedWrite): Promise<FinalWriteResult>;
  many(writes: readonly BatchedWrite[]): Promise<FinalWriteResult[]>;
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
      }),
    many: (writes) => writeFinalBatch(db, objectType, writes, historyLimit),
  };
}
