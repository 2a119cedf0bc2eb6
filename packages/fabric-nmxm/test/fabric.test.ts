import { NVLINK_DEFAULT_PARTITION_NUMBER, type NvLinkOperationStatus } from "@racksmith/core/nvlink";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { domainUuid } from "../src/simulator/index.js";
import { failure, freeGpus, type Harness, startHarness } from "./support.js";

describe("NMX-M fabric against the simulator", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ operationDelayMs: 40 });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Freezes the simulator's clock (Date.now, which moves its operations on when they are read): an operation
   * then stays in its phase however slowly the requests go, until the test moves the clock.
   */
  const freezeClock = () => vi.useFakeTimers({ toFake: ["Date"] });

  it("lists the GPUs of every domain, with locations and exact u64 device ids", async () => {
    const gpus = await h.fabric.listGpus();
    expect(gpus).toHaveLength(144);
    expect(new Set(gpus.map((gpu) => gpu.domain))).toEqual(new Set([domainUuid(0), domainUuid(1)]));
    const inDomain = await h.fabric.listGpus({ domain: domainUuid(1) });
    expect(inDomain).toHaveLength(72);
    const simulated = h.sim.gpus()[5];
    const gpu = gpus.find((candidate) => candidate.id === simulated?.id);
    expect(gpu).toMatchObject({
      domain: domainUuid(0),
      location: { chassisSerial: "SIM-NVL-1", slot: 2, tray: 1 },
      deviceIndex: 2,
      deviceUid: simulated?.deviceUid,
      health: "healthy",
    });
    expect(BigInt(gpu?.deviceUid ?? "0")).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it("gets one GPU, and reports an unknown one as fabric_not_found", async () => {
    const [first] = h.sim.gpus();
    expect((await h.fabric.getGpu(first?.id ?? "")).id).toBe(first?.id);
    const error = await failure(h.fabric.getGpu("no-such-gpu"));
    expect(error.code).toBe("fabric_not_found");
    expect(error.message).toContain("no-such-gpu");
  });

  it("lists compute nodes with their GPUs", async () => {
    const nodes = await h.fabric.listComputeNodes();
    expect(nodes).toHaveLength(36);
    expect(nodes.every((node) => node.gpuIds.length === 4)).toBe(true);
    expect(await h.fabric.listComputeNodes({ domain: domainUuid(0) })).toHaveLength(18);
  });

  it("starts with every GPU in its domain's default partition 32766", async () => {
    const partitions = await h.fabric.listPartitions();
    expect(partitions).toHaveLength(2);
    expect(partitions.map((partition) => partition.domain).sort()).toEqual([domainUuid(0), domainUuid(1)]);
    const [defaultPartition] = await h.fabric.listPartitions({ domain: domainUuid(1) });
    expect(defaultPartition).toMatchObject({ number: NVLINK_DEFAULT_PARTITION_NUMBER, isDefault: true });
    expect(defaultPartition?.gpus).toHaveLength(72);
    expect(h.sim.defaultPartitions()).toHaveLength(2);
    const gpus = await h.fabric.listGpus();
    expect(gpus.every((gpu) => gpu.partitionNumber === NVLINK_DEFAULT_PARTITION_NUMBER)).toBe(true);
    expect(await h.fabric.getPartition(defaultPartition?.id ?? "")).toMatchObject({ isDefault: true });
  });

  it("refuses a GPU that is still in the default partition, as a failed operation", async () => {
    const gpu = h.sim.gpus()[70]?.id ?? "";
    const { operationId } = await h.fabric.createPartition({ name: "too-early", gpus: [gpu] });
    const operation = await h.fabric.waitForOperation(operationId);
    expect(operation.status).toBe("failed");
    expect(operation.error).toContain(`already in partition ${NVLINK_DEFAULT_PARTITION_NUMBER}`);
  });

  it("creates, updates and deletes a partition through asynchronous operations", async () => {
    const gpus = h.sim
      .gpus()
      .slice(0, 8)
      .map((gpu) => gpu.id);
    await freeGpus(h.fabric, gpus);
    expect(h.sim.partitionOf(gpus[0] ?? "")).toBeNull();

    // Pending for the first half of its time, in progress for the second, then done.
    freezeClock();
    h.sim.slowOperations(1_000);
    const { operationId } = await h.fabric.createPartition({ name: "tenant-a", gpus: gpus.slice(0, 4) });
    const seen: NvLinkOperationStatus[] = [(await h.fabric.getOperation(operationId)).status];
    vi.advanceTimersByTime(499);
    seen.push((await h.fabric.getOperation(operationId)).status);
    vi.advanceTimersByTime(1);
    seen.push((await h.fabric.getOperation(operationId)).status);
    vi.advanceTimersByTime(499);
    seen.push((await h.fabric.getOperation(operationId)).status);
    vi.advanceTimersByTime(1);
    const created = await h.fabric.getOperation(operationId);
    seen.push(created.status);
    expect(seen).toEqual(["pending", "pending", "in-progress", "in-progress", "completed"]);
    vi.useRealTimers();
    h.sim.slowOperations(40);
    expect(created.request).toEqual({ method: "POST", uri: "/nmx/v1/partitions" });
    const partitionId = created.partitionId ?? "";
    const partition = await h.fabric.getPartition(partitionId);
    expect(partition).toMatchObject({
      name: "tenant-a",
      domain: domainUuid(0),
      gpus: gpus.slice(0, 4),
      type: "id-based",
      isDefault: false,
    });
    expect((await h.fabric.getGpu(gpus[0] ?? "")).partitionNumber).toBe(partition.number);

    const update = await h.fabric.updatePartition(partitionId, { gpus: gpus.slice(2, 8) });
    expect((await h.fabric.waitForOperation(update.operationId)).status).toBe("completed");
    expect((await h.fabric.getPartition(partitionId)).gpus).toEqual(gpus.slice(2, 8));
    expect(h.sim.partitionOf(gpus[0] ?? "")).toBeNull();

    const removal = await h.fabric.deletePartition(partitionId);
    expect((await h.fabric.waitForOperation(removal.operationId)).status).toBe("completed");
    expect((await failure(h.fabric.getPartition(partitionId))).code).toBe("fabric_not_found");
    expect((await h.fabric.getGpu(gpus[3] ?? "")).partitionNumber).toBeNull();
  });

  it("fails an operation whose GPUs span two domains", async () => {
    const [a, b] = [h.sim.gpus()[10]?.id ?? "", h.sim.gpus()[100]?.id ?? ""];
    await freeGpus(h.fabric, [a, b]);
    expect([h.sim.partitionOf(a), h.sim.partitionOf(b)]).toEqual([null, null]);
    const { operationId } = await h.fabric.createPartition({ name: "split", gpus: [a, b] });
    const operation = await h.fabric.waitForOperation(operationId);
    expect(operation).toMatchObject({ status: "failed" });
    expect(operation.error).toContain("2 NVLink domains");
  });

  it("cancels a pending operation; a finished one cannot be cancelled", async () => {
    const gpu = h.sim.gpus()[20]?.id ?? "";
    await freeGpus(h.fabric, [gpu]);
    // Still pending when cancelled, however long the cancel takes to arrive.
    freezeClock();
    h.sim.slowOperations(5_000);
    const { operationId } = await h.fabric.createPartition({ name: "cancel-me", gpus: [gpu] });
    expect((await h.fabric.getOperation(operationId)).status).toBe("pending");
    expect(await h.fabric.cancelOperation(operationId)).toEqual({ operationId });
    expect((await h.fabric.getOperation(operationId)).status).toBe("cancelled");
    // Its time running out later changes nothing.
    vi.advanceTimersByTime(5_000);
    expect((await h.fabric.getOperation(operationId)).status).toBe("cancelled");
    expect(h.sim.partitionOf(gpu)).toBeNull();
    vi.useRealTimers();
    h.sim.slowOperations(40);

    const done = await h.fabric.createPartition({ name: "done", gpus: [gpu] });
    expect((await h.fabric.waitForOperation(done.operationId)).status).toBe("completed");
    const error = await failure(h.fabric.cancelOperation(done.operationId));
    expect(error.code).toBe("fabric_rejected");
    expect(error.message).toContain("completed");
  });

  it("reports unknown operations and partitions as fabric_not_found", async () => {
    expect((await failure(h.fabric.getOperation("nope"))).code).toBe("fabric_not_found");
    expect((await failure(h.fabric.cancelOperation("nope"))).code).toBe("fabric_not_found");
    expect((await failure(h.fabric.updatePartition("nope", { gpus: ["x"] }))).code).toBe("fabric_not_found");
    expect((await failure(h.fabric.deletePartition("nope"))).code).toBe("fabric_not_found");
  });

  it("refuses an empty member list before calling NMX-M", async () => {
    const error = await failure(h.fabric.createPartition({ name: "empty", gpus: [] }));
    expect(error.code).toBe("invalid_argument");
  });

  it("shows partitions made by hand in NMX-M (unknown to the core)", async () => {
    const gpu = h.sim.gpus()[30]?.id ?? "";
    await freeGpus(h.fabric, [gpu]);
    const unknown = h.sim.createPartitionByHand({ name: "by-hand", gpus: [gpu], number: 12345 });
    const other = h.sim.gpus()[31]?.id ?? "";
    h.sim.placeGpuByHand(other, 12345);
    const listed = (await h.fabric.listPartitions({ domain: domainUuid(0) })).find(
      (p) => p.id === unknown.id,
    );
    expect(listed).toMatchObject({ number: 12345, gpus: [gpu, other], isDefault: false });
    expect((await h.fabric.getGpu(other)).partitionNumber).toBe(12345);
  });

  it("truncates partition names to 240 characters", async () => {
    const gpu = h.sim.gpus()[40]?.id ?? "";
    await freeGpus(h.fabric, [gpu]);
    const { operationId } = await h.fabric.createPartition({ name: "n".repeat(300), gpus: [gpu] });
    const operation = await h.fabric.waitForOperation(operationId);
    expect(operation.status).toBe("completed");
    expect((await h.fabric.getPartition(operation.partitionId ?? "")).name).toHaveLength(240);
  });

  it("browses read-only NMX-M paths as raw JSON and refuses anything else", async () => {
    const browse = (path: string): Promise<unknown> => {
      if (!h.fabric.browse) throw new Error("the NMX-M fabric cannot browse");
      return h.fabric.browse(path);
    };
    const gpus = (await browse("nmx/v1/gpus")) as Array<{ ID: string }>;
    expect(gpus).toHaveLength(144);
    expect(gpus[0]).toHaveProperty("ID");
    await expect(browse("/nmx/v1/partitions")).resolves.toBeInstanceOf(Array);
    for (const path of ["nmx/../etc/passwd", "http://elsewhere/nmx/v1/gpus", "admin/users"]) {
      await expect(browse(path)).rejects.toMatchObject({ code: "invalid_argument" });
    }
  });
});
