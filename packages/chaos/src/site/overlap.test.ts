import { describe, expect, it } from "vitest";
import { type ObservedProcess, OverlapWatch, overlapFailures } from "./overlap.js";

const A = "box-100-aaaaaaaa";
const B = "box-200-bbbbbbbb";

/** A pino line of the engine, as `racksmith serve` prints it. */
function line(process: string, fields: Record<string, unknown>) {
  const json = {
    level: 20,
    service: "racksmith",
    objectType: "managed-host",
    state: "hostInit/x",
    ...fields,
  };
  // Through text and back, as the runner reads it.
  return { process: { name: process }, json: JSON.parse(JSON.stringify(json)) as Record<string, unknown> };
}
const started = (process: string, owner: string, claim: number, time: number, objectId = "mh-1") =>
  line(process, { time, objectId, owner, claim, msg: "run started" });
const finished = (process: string, owner: string, claim: number, time: number, objectId = "mh-1") =>
  line(process, { time, objectId, owner, claim, msg: "run ended" });

function watch(lines: ReturnType<typeof line>[], processes: ObservedProcess[]) {
  const overlapWatch = new OverlapWatch();
  for (const observed of lines) overlapWatch.observe(observed);
  return overlapWatch.report(processes);
}

const alive = (name: string, processorId: string): ObservedProcess => ({
  name,
  processorId,
  diedAt: undefined,
});
const died = (name: string, processorId: string, at: number): ObservedProcess => ({
  name,
  processorId,
  diedAt: at,
});

describe("OverlapWatch", () => {
  it("ends a run when its work was done, not when its busy process got round to the line", () => {
    const lines = [
      started("a#1", A, 5, 915),
      // b claims as soon as a's release commits (963); a logs its end later (979), its work done at 950.
      started("b#1", B, 6, 963),
      line("a#1", { time: 979, objectId: "mh-1", owner: A, claim: 5, workDoneAt: 950, msg: "run ended" }),
      finished("b#1", B, 6, 1_098),
    ];
    expect(watch(lines, [alive("a#1", A), alive("b#1", B)]).overlaps).toEqual([]);
    // Work still going on when b started is an overlap.
    const late = lines.map((observed) =>
      observed.json.workDoneAt === 950 ? line("a#1", { ...observed.json, workDoneAt: 970 }) : observed,
    );
    expect(watch(late, [alive("a#1", A), alive("b#1", B)]).overlaps).toHaveLength(1);
  });

  it("sees no overlap in runs one after the other, across replicas and claims", () => {
    const report = watch(
      [
        started("a#1", A, 1, 100),
        finished("a#1", A, 1, 200),
        // Touching is not overlapping: the next claim comes after the final write.
        started("b#1", B, 2, 200),
        finished("b#1", B, 2, 300),
        started("a#1", A, 3, 301),
        finished("a#1", A, 3, 400),
        // Another object at the same time: not the same object.
        started("b#1", B, 1, 350, "mh-2"),
        finished("b#1", B, 1, 360, "mh-2"),
      ],
      [alive("a#1", A), alive("b#1", B)],
    );
    expect(report.handlerRuns).toBe(4);
    expect(report.overlaps).toEqual([]);
    expect(overlapFailures(report)).toEqual([]);
  });

  it("finds two replicas running the same object at once", () => {
    const report = watch(
      [
        started("a#1", A, 1, 100),
        started("b#1", B, 2, 150),
        finished("b#1", B, 2, 160),
        finished("a#1", A, 1, 200),
      ],
      [alive("a#1", A), alive("b#1", B)],
    );
    expect(report.overlaps).toHaveLength(1);
    expect(report.overlaps[0]).toMatchObject({
      objectId: "mh-1",
      first: { owner: A, claim: 1 },
      second: { claim: 2 },
    });
    expect(overlapFailures(report)[0]).toMatch(/^handler overlap on managed-host mh-1: a#1 \(claim 1\)/);
  });

  it("ends the runs of a killed process at its death, not later", () => {
    // a#1 was SIGKILLed at 500 in the middle of its handler: a#2 starting after that is fine.
    const afterKill = watch(
      [started("a#1", A, 1, 400), started("a#2", B, 2, 520), finished("a#2", B, 2, 600)],
      [died("a#1", A, 500), alive("a#2", B)],
    );
    expect(afterKill.overlaps).toEqual([]);
    // b#1 started before a#1 was dead: both ran.
    const beforeKill = watch(
      [started("a#1", A, 1, 400), started("b#1", B, 2, 450)],
      [died("a#1", A, 500), alive("b#1", B)],
    );
    expect(beforeKill.overlaps).toHaveLength(1);
    expect(beforeKill.overlaps[0]?.firstEnd).toBe(500);
  });

  it("counts a run that never finished on a live process as running", () => {
    const report = watch(
      [started("a#1", A, 1, 100), started("b#1", B, 2, 10_000)],
      [alive("a#1", A), alive("b#1", B)],
    );
    expect(report.overlaps).toHaveLength(1);
    expect(overlapFailures(report)[0]).toContain("(never finished)");
  });

  it("ignores lines without an owner and claim, and lines of other objects", () => {
    const report = watch(
      [
        line("a#1", { time: 1, objectId: "mh-1", msg: "run started" }),
        line("a#1", { time: 2, msg: "racksmith listening", http: "http://127.0.0.1:1" }),
        line("a#1", {
          time: 3,
          objectId: "mh-1",
          from: "created",
          to: "dpuDiscovering/x",
          msg: "state transition",
        }),
      ],
      [alive("a#1", A)],
    );
    expect(report.handlerRuns).toBe(0);
    expect(report.overlaps).toEqual([]);
  });

  it("reads what the engine logs today: lost claims and takeovers from a live owner", () => {
    const report = watch(
      [
        line("b#1", {
          time: 100,
          objectId: "mh-1",
          previousOwner: A,
          msg: "took over a claim whose lease expired",
        }),
        line("b#1", {
          time: 900,
          objectId: "mh-2",
          previousOwner: A,
          msg: "took over a claim whose lease expired",
        }),
        line("b#1", {
          time: 950,
          objectId: "mh-3",
          previousOwner: B,
          msg: "took over a claim whose lease expired",
        }),
        line("a#1", {
          time: 300,
          objectId: "mh-1",
          reason: "lease",
          msg: "claim lost while the handler ran; its result is discarded",
        }),
        line("a#1", {
          time: 310,
          objectId: "mh-4",
          timeoutMs: 180_000,
          msg: "handler timed out; its result is discarded",
        }),
      ],
      [died("a#1", A, 500), alive("b#1", B)],
    );
    expect(report.takeovers).toHaveLength(3);
    // mh-1 was taken while a#1 lived; mh-2 after it died; mh-3 was b#1's own expired claim.
    expect(report.liveTakeovers.map((t) => t.objectId)).toEqual(["mh-1"]);
    expect(report.lostClaims.map((c) => c.objectId)).toEqual(["mh-1"]);
    expect(report.timeouts).toBe(1);
    expect(overlapFailures(report)).toEqual([
      expect.stringMatching(/^handler overlap on managed-host mh-1: a#1 lost its claim/),
      expect.stringMatching(
        /^possible handler overlap on managed-host mh-1: b#1 took over the claim of box-100/,
      ),
    ]);
  });
});
