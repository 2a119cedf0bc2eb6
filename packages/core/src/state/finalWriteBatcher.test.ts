import { beforeEach, describe, expect, it, vi } from "vitest";
import type { FinalWriteResult } from "./finalWrite.js";
import type { BatchedWrite } from "./finalWriteBatch.js";
import { FinalWriteBatcher, type FinalWriteStatements } from "./finalWriteBatcher.js";
import type { Claim } from "./records.js";

const single = vi.fn<FinalWriteStatements["one"]>();
const batch = vi.fn<FinalWriteStatements["many"]>();
const landed = vi.fn<FinalWriteStatements["landed"]>();
const statements: FinalWriteStatements = { one: single, many: batch, landed };
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
  landed.mockReset();
  landed.mockResolvedValue(false);
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

  it.each([
    ["no answer, landed (committed before the connection was lost)", "lost", true, WRITTEN],
    ["no answer, not landed", "lost", false, "connection lost"],
    ["claim gone, landed (a committed batch sent again)", "gone", true, WRITTEN],
    ["claim gone, not landed (another run holds it)", "gone", false, { held: false, written: false }],
    ["held, version moved: no need to look", "moved", true, { held: true, written: false }],
  ] as const)(
    "reports a write by what is in the database when its answer says too little: %s",
    async (_name, answer, inDatabase, expected) => {
      single.mockImplementation(async () => {
        if (answer === "lost") throw new Error("connection lost");
        return { held: answer === "moved", written: false };
      });
      landed.mockResolvedValue(inDatabase);
      const outcome = new FinalWriteBatcher(statements).write(run("a"));
      if (typeof expected === "string") await expect(outcome).rejects.toThrow(expected);
      else await expect(outcome).resolves.toEqual(expected);
      expect(landed).toHaveBeenCalledTimes(answer === "moved" ? 0 : 1);
    },
  );

  it("looks for each write of a batch that failed as a whole and whose writes then find their claims gone", async () => {
    const first = deferred<FinalWriteResult>();
    single.mockReturnValueOnce(first.promise);
    batch.mockRejectedValue(new Error("Connection terminated unexpectedly"));
    single.mockResolvedValue({ held: false, written: false });
    landed.mockImplementation(async (write) => write.claim.objectId !== "taken");
    const batcher = new FinalWriteBatcher(statements);

    const a = batcher.write(run("a"));
    const committed = batcher.write(run("committed"));
    const taken = batcher.write(run("taken"));
    first.resolve(WRITTEN);

    await expect(a).resolves.toEqual(WRITTEN);
    await expect(committed).resolves.toEqual(WRITTEN);
    await expect(taken).resolves.toEqual({ held: false, written: false });
    expect(landed.mock.calls.map((call) => call[0].claim.objectId)).toEqual(["committed", "taken"]);
  });

  it("reports the statement's own error when the look for the write fails too", async () => {
    single.mockRejectedValue(new Error("connection lost"));
    landed.mockRejectedValue(new Error("still down"));
    await expect(new FinalWriteBatcher(statements).write(run("a"))).rejects.toThrow("connection lost");
  });
});
