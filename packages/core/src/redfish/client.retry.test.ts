import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { RedfishHttpError } from "./errors.js";

describe("retries", () => {
  let bmc: FakeBmc;
  let failuresLeft = 0;
  let failWith = 503;

  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        if (failWith === 0) {
          response.socket?.destroy();
          return;
        }
        return sendJson(response, failWith, redfishError("Base.1.8.ServiceTemporarilyUnavailable"));
      }
      return sendJson(response, request.method === "POST" ? 200 : 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());
  beforeEach(() => {
    bmc.requests.length = 0;
  });

  const client = (): RedfishClient =>
    new RedfishClient({ address: bmc.url, retry: { baseDelayMs: 1, maxDelayMs: 5 } });

  it.each([502, 503, 504])("retries a GET answered %i, up to two more times", async (status) => {
    failWith = status;
    failuresLeft = 2;
    const c = client();
    await expect(c.get("/redfish/v1/Systems")).resolves.toBeTruthy();
    expect(bmc.requests).toHaveLength(3);
    await c.close();
  });

  it("gives up after the configured retries with the last HTTP error", async () => {
    failWith = 503;
    failuresLeft = 5;
    const c = client();
    const error = await c.get("/redfish/v1/Systems").catch((e: unknown) => e);
    expect((error as RedfishHttpError).httpStatus).toBe(503);
    expect(bmc.requests).toHaveLength(3);
    failuresLeft = 0;
    await c.close();
  });

  it("never retries a POST or PATCH", async () => {
    failWith = 503;
    const c = client();
    failuresLeft = 1;
    await expect(
      c.post("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset", { ResetType: "On" }),
    ).rejects.toBeInstanceOf(RedfishHttpError);
    failuresLeft = 1;
    await expect(c.patch("/redfish/v1/Systems/1", { AssetTag: "x" })).rejects.toBeInstanceOf(
      RedfishHttpError,
    );
    expect(bmc.requests.map((r) => r.method)).toEqual(["POST", "PATCH"]);
    await c.close();
  });

  it("does not retry a 500 or a 404", async () => {
    failWith = 500;
    failuresLeft = 1;
    const c = client();
    await expect(c.get("/redfish/v1/Systems")).rejects.toBeInstanceOf(RedfishHttpError);
    expect(bmc.requests).toHaveLength(1);
    await c.close();
  });

  it("retries a GET whose connection was reset", async () => {
    failWith = 0;
    failuresLeft = 1;
    const c = client();
    await expect(c.get("/redfish/v1/Systems")).resolves.toBeTruthy();
    expect(bmc.requests).toHaveLength(2);
    await c.close();
  });
});
