import { describe, expect, it } from "vitest";
import { SessionTurns } from "./sessionTurns.js";

/** A session that records what was sent, in order, and answers each statement when told. */
function recordingSession() {
  const sent: string[] = [];
  const answers = new Map<string, () => void>();
  const statement = (name: string) => () => {
    sent.push(name);
    return new Promise<string>((resolve) => answers.set(name, () => resolve(name)));
  };
  const answer = (name: string) => answers.get(name)?.();
  return { sent, statement, answer };
}

describe("SessionTurns (one ordered session: transactions take turns, other statements are pipelined)", () => {
  it("sends statements outside transactions at once, without waiting for earlier answers", () => {
    const turns = new SessionTurns();
    const session = recordingSession();
    void turns.send(session.statement("a"));
    void turns.send(session.statement("b"));
    expect(session.sent).toEqual(["a", "b"]);
    expect(turns.busy).toBe(false);
  });

  it("holds a statement while a transaction has the session, and sends it before the next transaction", async () => {
    const turns = new SessionTurns();
    const session = recordingSession();
    const first = await turns.transaction();
    session.statement("begin 1")();
    const outside = turns.send(session.statement("outside"));
    const secondTurn = turns.transaction();
    expect(session.sent).toEqual(["begin 1"]);
    first();
    expect(session.sent).toEqual(["begin 1", "outside"]);
    const second = await secondTurn;
    expect(turns.busy).toBe(true);
    session.statement("begin 2")();
    const late = turns.send(session.statement("late"));
    expect(session.sent).toEqual(["begin 1", "outside", "begin 2"]);
    second();
    expect(session.sent).toEqual(["begin 1", "outside", "begin 2", "late"]);
    expect(turns.busy).toBe(false);
    session.answer("outside");
    session.answer("late");
    await expect(outside).resolves.toBe("outside");
    await expect(late).resolves.toBe("late");
  });

  it("serves waiters first come, first served, and a release twice hands over once", async () => {
    const turns = new SessionTurns();
    const order: string[] = [];
    const first = await turns.transaction();
    const waiting = ["t2", "t3"].map((name) =>
      turns.transaction().then((release) => {
        order.push(name);
        return release;
      }),
    );
    void turns.send(async () => {
      order.push("statement");
    });
    first();
    first();
    const second = await waiting[0];
    expect(order).toEqual(["t2"]);
    second?.();
    const third = await waiting[1];
    expect(order).toEqual(["t2", "t3"]);
    third?.();
    expect(order).toEqual(["t2", "t3", "statement"]);
    expect(turns.busy).toBe(false);
  });

  it("rejects a held statement whose send throws, and keeps serving the rest", async () => {
    const turns = new SessionTurns();
    const release = await turns.transaction();
    const broken = turns.send<never>(() => {
      throw new Error("session closed");
    });
    const fine = turns.send(async () => "fine");
    release();
    await expect(broken).rejects.toThrow("session closed");
    await expect(fine).resolves.toBe("fine");
  });
});
