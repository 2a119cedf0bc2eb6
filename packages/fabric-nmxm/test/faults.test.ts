import { afterEach, describe, expect, it } from "vitest";
import { failure, freeGpus, type Harness, startHarness } from "./support.js";

describe("NMX-M faults", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("reports a down NMX-M as fabric_unavailable after exactly one retry, and recovers", async () => {
    h = await startHarness({ domains: { domainCount: 1, gpusPerDomain: 8 } });
    await h.fabric.listGpus();
    h.sim.setDown(true);
    const before = h.sim.requests.length;
    const error = await failure(h.fabric.listGpus());
    expect(error.code).toBe("fabric_unavailable");
    expect(error.message).toContain("GET nmx/v1/gpus");
    expect(h.sim.requests.slice(before).filter((request) => request.status === 0)).toHaveLength(2);
    h.sim.setDown(false);
    expect(await h.fabric.listGpus()).toHaveLength(8);
  });

  it("turns a slow response into fabric_timeout", async () => {
    h = await startHarness({ domains: { domainCount: 1, gpusPerDomain: 4 } }, { timeoutMs: 1_000 });
    h.sim.setResponseDelay(5_000);
    const error = await failure(h.fabric.listPartitions());
    expect(error.code).toBe("fabric_timeout");
    expect(error.message).toContain("1000 ms");
  });

  it("fails creates after N, with the failure's reason on the operation", async () => {
    h = await startHarness({
      domains: { domainCount: 1, gpusPerDomain: 8 },
      faults: { failAfterCreates: 1 },
    });
    const [a, b] = h.sim.gpus().map((gpu) => gpu.id);
    await freeGpus(h.fabric, [a ?? "", b ?? ""]);
    const first = await h.fabric.createPartition({ name: "first", gpus: [a ?? ""] });
    expect((await h.fabric.waitForOperation(first.operationId)).status).toBe("completed");
    const second = await h.fabric.createPartition({ name: "second", gpus: [b ?? ""] });
    const failed = await h.fabric.waitForOperation(second.operationId);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("simulated failure");
    expect(h.sim.partitionOf(b ?? "")).toBeNull();
  });

  it("returns a still-running operation when it outlasts operationTimeoutMs", async () => {
    h = await startHarness({ domains: { domainCount: 1, gpusPerDomain: 4 } }, { operationTimeoutMs: 60 });
    const [gpu] = h.sim.gpus().map((candidate) => candidate.id);
    await freeGpus(h.fabric, [gpu ?? ""]);
    h.sim.slowOperations(10_000);
    const { operationId } = await h.fabric.createPartition({ name: "slow", gpus: [gpu ?? ""] });
    const operation = await h.fabric.waitForOperation(operationId);
    expect(["pending", "in-progress"]).toContain(operation.status);
    expect(h.fabric.monitor.operationTimeoutMs).toBe(60);
  });

  it("maps 5xx to fabric_unavailable without retrying", async () => {
    h = await startHarness({ domains: { domainCount: 1, gpusPerDomain: 4 } });
    h.sim.failRequests(503);
    const before = h.sim.requests.length;
    const error = await failure(h.fabric.listComputeNodes());
    expect(error.code).toBe("fabric_unavailable");
    expect(error.message).toContain("HTTP 503");
    expect(h.sim.requests.length - before).toBe(1);
  });

  it("refuses a response larger than maxResponseBytes", async () => {
    h = await startHarness({}, { maxResponseBytes: 4096 });
    const error = await failure(h.fabric.listGpus());
    expect(error.code).toBe("fabric_bad_response");
    expect(error.message).toContain("maxResponseBytes (4096)");
  });

  it("reports wrong credentials as fabric_auth_failed", async () => {
    h = await startHarness({ password: "right-password", domains: { domainCount: 1, gpusPerDomain: 4 } });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${h.dir}/wrong`, "wrong-password");
    const wrong = await h.connect({ passwordFile: "wrong" });
    const error = await failure(wrong.listGpus());
    expect(error.code).toBe("fabric_auth_failed");
    expect(error.message).not.toContain("wrong-password");
  });
});
