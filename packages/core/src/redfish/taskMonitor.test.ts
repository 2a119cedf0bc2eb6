import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { RedfishTaskFailedError, RedfishTimeoutError } from "./errors.js";

describe("task monitors", () => {
  let bmc: FakeBmc;
  const polls = new Map<string, number>();

  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      const count = (polls.get(request.url) ?? 0) + 1;
      polls.set(request.url, count);
      const task = (state: string, percent: number) => ({
        "@odata.id": "/redfish/v1/TaskService/Tasks/7",
        Id: "7",
        TaskState: state,
        PercentComplete: percent,
        Messages:
          state === "Exception" ? [{ MessageId: "Update.1.0.ApplyFailed", Message: "image rejected" }] : [],
      });
      switch (request.url) {
        case "/monitor/ok":
          return count < 3
            ? sendJson(response, 202, task("Running", count * 30))
            : sendJson(response, 200, task("Completed", 100));
        case "/monitor/fails":
          return count < 2
            ? sendJson(response, 202, task("Running", 10))
            : sendJson(response, 200, task("Exception", 40));
        case "/monitor/vanishes":
          return count < 2 ? sendJson(response, 202, task("Running", 50)) : sendJson(response, 404, {});
        case "/redfish/v1/TaskService/Tasks/7":
          return sendJson(response, 200, task("Completed", 100));
        case "/monitor/busy":
          return count < 3 ? sendJson(response, 503, {}) : sendJson(response, 204, undefined);
        default:
          return sendJson(response, 202, task("Running", 1));
      }
    });
  });
  afterAll(() => bmc.stop());

  const fast = { pollMs: 5, maxPollMs: 10 };

  it("polls a 202 monitor until the task completes and reports progress", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const progress: number[] = [];
    const result = await client.waitForTask("/monitor/ok", {
      ...fast,
      onProgress: (p) => progress.push(p.percentComplete ?? -1),
    });
    expect(result.state).toBe("Completed");
    expect(result.taskPath).toBe("/redfish/v1/TaskService/Tasks/7");
    expect(progress).toEqual([30, 60, 100]);
    await client.close();
  });

  it("throws RedfishTaskFailedError with the task's messages when it ends in Exception", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const error = (await client
      .waitForTask("/monitor/fails", fast)
      .catch((e: unknown) => e)) as RedfishTaskFailedError;
    expect(error).toBeInstanceOf(RedfishTaskFailedError);
    expect(error.taskState).toBe("Exception");
    expect(error.message).toContain("image rejected");
    await client.close();
  });

  it("follows the Task resource when the monitor disappears after the task ends", async () => {
    const client = new RedfishClient({ address: bmc.url });
    await expect(client.waitForTask("/monitor/vanishes", fast)).resolves.toMatchObject({
      state: "Completed",
    });
    await client.close();
  });

  it("keeps polling through a busy BMC", async () => {
    const client = new RedfishClient({ address: bmc.url, retry: { retries: 0 } });
    await expect(client.waitForTask("/monitor/busy", fast)).resolves.toMatchObject({ state: "Completed" });
    await client.close();
  });

  it("times out with a typed error", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const error = (await client
      .waitForTask("/monitor/forever", { ...fast, timeoutMs: 60 })
      .catch((e: unknown) => e)) as RedfishTimeoutError;
    expect(error).toBeInstanceOf(RedfishTimeoutError);
    expect(error.phase).toBe("task");
    await client.close();
  });
});
