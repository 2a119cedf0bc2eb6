import type { HandlerContext } from "@racksmith/core/engine";
import type { InfiniBandFabric } from "@racksmith/core/infiniband";
import { InfiniBandFabricNotFoundError, InfiniBandFabricRejectedError } from "@racksmith/core/infiniband";
import { describe, expect, it } from "vitest";
import { type IbPartitionObject, ibPartitionMachine } from "./machine.js";
import type { IbPartitionState } from "./states.js";

const QOS = { mtu: 4, rateLimit: 200, serviceLevel: 0 };

function fakeFabric(partition: { qos?: typeof QOS; members?: string[] } | "missing" | "refuse") {
  const calls: string[] = [];
  const fabric = {
    name: "fake",
    settings: { pkeyRanges: [{ start: 0x100, end: 0x200 }], qos: QOS, monitorIntervalMs: 1_000 },
    async getPartition(pkey: number) {
      if (partition === "missing") throw new InfiniBandFabricNotFoundError("fake", "partition", String(pkey));
      if (partition === "refuse")
        throw new InfiniBandFabricRejectedError("fake", "pkey 0x101 refused by UFM");
      return {
        pkey,
        name: "p",
        ipOverIb: true,
        qos: partition.qos ?? QOS,
        members: (partition.members ?? []).map((guid) => ({
          guid,
          membership: "full" as const,
          index0: true,
        })),
      };
    },
    async updateQos(pkey: number) {
      calls.push(`qos ${pkey}`);
    },
    async unbindGuids(pkey: number, guids: readonly string[]) {
      calls.push(`unbind ${pkey} ${guids.join(",")}`);
    },
  } as unknown as InfiniBandFabric;
  return { fabric, calls };
}

const row = (over: Partial<IbPartitionObject> = {}): IbPartitionObject => ({
  id: "p1",
  name: "p1",
  tenant_org: "acme",
  pkey: 0x101,
  requested_pkey: null,
  deleted_at: null,
  created_at: new Date(),
  users: [],
  ...over,
});

async function run(fabric: InfiniBandFabric, state: IbPartitionState, object: IbPartitionObject) {
  const deferred: unknown[] = [];
  const context = {
    signal: new AbortController().signal,
    defer: (write: unknown) => deferred.push(write),
  } as unknown as HandlerContext<IbPartitionState>;
  const outcome = await ibPartitionMachine(() => fabric).handle({ id: object.id, state, object, context });
  return { outcome, deferred };
}

describe("the ib-partition state machine", () => {
  it.each([
    {
      name: "provisioning → ready",
      state: { state: "provisioning" },
      obj: row(),
      partition: "missing",
      kind: "transition",
      next: "ready",
    },
    {
      name: "ready, nothing bound yet",
      state: { state: "ready" },
      obj: row(),
      partition: "missing",
      kind: "doNothing",
    },
    {
      name: "ready → deleting once deleted",
      state: { state: "ready" },
      obj: row({ deleted_at: new Date() }),
      partition: "missing",
      kind: "transition",
      next: "deleting",
    },
    {
      name: "ready → error with the cause UFM gives",
      state: { state: "ready" },
      obj: row(),
      partition: "refuse",
      kind: "transition",
      next: "error",
    },
    {
      name: "error → ready once UFM accepts",
      state: { state: "error", cause: "x" },
      obj: row(),
      partition: {},
      kind: "transition",
      next: "ready",
    },
    {
      name: "deleting waits for instances still using it",
      state: { state: "deleting" },
      obj: row({ deleted_at: new Date(), users: ["i1"] }),
      partition: "missing",
      kind: "wait",
    },
    {
      name: "deleting → gone",
      state: { state: "deleting" },
      obj: row({ deleted_at: new Date() }),
      partition: "missing",
      kind: "deleted",
    },
  ] as const)("$name", async ({ state, obj, partition, kind, ...rest }) => {
    const { fabric } = fakeFabric(partition as Parameters<typeof fakeFabric>[0]);
    const { outcome, deferred } = await run(fabric, state as IbPartitionState, obj);
    expect(outcome.kind).toBe(kind);
    if ("next" in rest && outcome.kind === "transition") expect(outcome.next.state).toBe(rest.next);
    if (kind === "deleted") expect(deferred).toHaveLength(1);
  });

  it("keeps the error's cause", async () => {
    const { fabric } = fakeFabric("refuse");
    const { outcome } = await run(fabric, { state: "ready" }, row());
    expect(outcome).toMatchObject({
      kind: "transition",
      next: { state: "error", cause: expect.stringContaining("refused") },
    });
  });

  it("corrects QoS drift in Ready, and unbinds what is left when deleting", async () => {
    const drift = fakeFabric({ qos: { mtu: 2, rateLimit: 100, serviceLevel: 1 } });
    await run(drift.fabric, { state: "ready" }, row());
    expect(drift.calls).toEqual(["qos 257"]);
    const left = fakeFabric({ members: ["b83fd20000000010"] });
    const { outcome } = await run(left.fabric, { state: "deleting" }, row({ deleted_at: new Date() }));
    expect(outcome.kind).toBe("wait");
    expect(left.calls).toEqual(["unbind 257 b83fd20000000010"]);
  });
});
