import { beforeEach, describe, expect, it, vi } from "vitest";
import type { FinalWriteResult } from "./finalWrite.js";
import type { BatchedWrite } from "./finalWriteBatch.js";
import { FinalWriteBatcher, type FinalWriteStatements } from "./finalWriteBatcher.js";
import type { Claim } from "./records.js";

const single = vi.fn<FinalWriteStatements["one"]>();
const batch = vi.fn<FinalWriteStatements["many"]>();
const statements: FinalWriteStatements = { one: single, many: batch };
const WRITTEN: FinalWriteResult = { held: true, written: true };

function run(id: string): BatchedWrite {
  const claim = { objectType: "t", objectId: id, owner: "me", claimCount: 1 } as Claim;
  return {
    claim,
    expectedVersion: 1,
    write: { kind: "outcome", outcome: { kind: "doNothing", at: "t" } },
    now: new Date(0),
  };
}

/** A promise and its resolution, to hold a write in flight. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

beforeEach(() => {
  single.mockReset();
  batch.mockReset();
});

describe("FinalWriteBatcher", () => {
  it("writes at once when idle, and batches the writes asked for while one is in flight", async () => {
    const first = deferred<FinalWriteResult>();
    single.mockReturnValueOnce(first.promise);
    batch.mockImplementation(async (writes) => writes.map(() => WRITTEN));
    const batcher = new FinalWriteBatcher(statements);

    const a = batcher.write(run("a"));
    expect(single).toHaveBeenCalledTimes(1);
    const rest = [batcher.write(run("b")), batcher.write(run("c")), batcher.write(run("d"))];
    expect(batch).not.toHaveBeenCalled();
    first.resolve(WRITTEN);

    expect(await Promise.all([a, ...rest])).toEqual([WRITTEN, WRITTEN, WRITTEN, WRITTEN]);
    expect(batch).toHaveBeenCalledTimes(1);
    expect(batch.mock.calls[0]?.[0].map((w) => w.claim.objectId)).toEqual(["b", "c", "d"]);
  });

  it("retries a failed batch one write at a time, so only the faulty write fails", async () => {
    const first = deferred<FinalWriteResult>();
    single.mockReturnValueOnce(first.promise);
    batch.mockRejectedValue(new Error("deadlock detected"));
    single.mockImplementation(async (write) => {
      if (write.claim.objectId === "bad") throw new Error("bad row");
      return WRITTEN;
    });
    const batcher = new FinalWriteBatcher(statements);

    const a = batcher.write(run("a"));
    const good = batcher.write(run("good"));
    const bad = batcher.write(run("bad"));
    first.resolve(WRITTEN);

    await expect(a).resolves.toEqual(WRITTEN);
    await expect(good).resolves.toEqual(WRITTEN);
    await expect(bad).rejects.toThrow("bad row");
    expect(single.mock.calls.map((call) => call[0].claim.objectId)).toEqual(["a", "good", "bad"]);
  });
});
