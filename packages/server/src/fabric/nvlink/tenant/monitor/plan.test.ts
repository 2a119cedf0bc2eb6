import { describe, expect, it } from "vitest";
import type { GpuPlacement } from "./decide.js";
import { type GpuDecision, type OwnedPartition, planOperations } from "./plan.js";

const NONE: GpuPlacement = { kind: "none" };
const inOurs = (lp: string, partitionId: string): GpuPlacement => ({
  kind: "ours",
  logicalPartitionId: lp,
  partitionId,
});
const add = (gpuId: string, lp: string, domain = "d1"): GpuDecision => ({
  gpuId,
  domain,
  placement: NONE,
  action: "add",
  desired: lp,
});
const remove = (
  gpuId: string,
  placement: GpuPlacement,
  action: "remove" | "remove_from_unknown" = "remove",
): GpuDecision => ({
  gpuId,
  domain: "d1",
  placement,
  action,
  desired: null,
});
const OWNED: OwnedPartition[] = [{ logicalPartitionId: "lp-a", domain: "d1", partitionId: "pa" }];

describe("planOperations", () => {
  it("creates one partition per logical partition and domain for adds with no owned partition", () => {
    const ops = planOperations({
      decisions: [add("g2", "lp-b"), add("g1", "lp-b"), add("g9", "lp-b", "d2")],
      members: new Map(),
      owned: [],
    });
    expect(ops).toEqual([
      {
        kind: "create",
        target: "lp-b",
        domain: "d1",
        name: "lp-b/g1,g2",
        gpus: ["g1", "g2"],
        changed: ["g1", "g2"],
      },
      { kind: "create", target: "lp-b", domain: "d2", name: "lp-b/g9", gpus: ["g9"], changed: ["g9"] },
    ]);
  });

  it("merges adds and removals of an owned partition into one update with the full member list", () => {
    const ops = planOperations({
      decisions: [add("g3", "lp-a"), remove("g1", inOurs("lp-a", "pa"))],
      members: new Map([["pa", ["g1", "g2"]]]),
      owned: OWNED,
    });
    expect(ops).toEqual([
      {
        kind: "update",
        target: "lp-a",
        domain: "d1",
        partitionId: "pa",
        gpus: ["g2", "g3"],
        changed: ["g3", "g1"],
      },
    ]);
  });

  it("deletes an owned partition its last GPU leaves, and one found empty", () => {
    const emptied = planOperations({
      decisions: [remove("g1", inOurs("lp-a", "pa"))],
      members: new Map([["pa", ["g1"]]]),
      owned: OWNED,
    });
    expect(emptied).toEqual([
      { kind: "remove", target: "lp-a", domain: "d1", partitionId: "pa", changed: ["g1"] },
    ]);
    const empty = planOperations({ decisions: [], members: new Map([["pa", []]]), owned: OWNED });
    expect(empty).toMatchObject([{ kind: "remove", partitionId: "pa", changed: [] }]);
  });

  it("takes GPUs out of default and unknown partitions under the partition's own target", () => {
    const ops = planOperations({
      decisions: [
        remove("g1", { kind: "default", partitionId: "def" }, "remove_from_unknown"),
        remove("g5", { kind: "unknown", partitionId: "x" }, "remove_from_unknown"),
      ],
      members: new Map([
        ["def", ["g1", "g2"]],
        ["x", ["g5"]],
      ]),
      owned: OWNED,
    });
    expect(ops).toEqual([
      { kind: "update", target: "nmxm:def", domain: "d1", partitionId: "def", gpus: ["g2"], changed: ["g1"] },
      { kind: "remove_unknown", target: "nmxm:x", domain: "d1", partitionId: "x", changed: ["g5"] },
    ]);
  });

  it("creates anew when the owned partition no longer exists in NMX-M", () => {
    const ops = planOperations({ decisions: [add("g1", "lp-a")], members: new Map(), owned: OWNED });
    expect(ops).toMatchObject([{ kind: "create", target: "lp-a", gpus: ["g1"] }]);
  });
});
