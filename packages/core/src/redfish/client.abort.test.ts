import { captureLogger } from "@racksmith/server/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { BmcConnectionPool } from "./connectionPool.js";
import { RedfishAbortedError, RedfishTimeoutError } from "./errors.js";
import { Semaphore } from "./semaphore.js";

const PASSWORD = "s3cret-Passw0rd";
/** vi.waitFor gives up after 1 s by default; these waits are bounded by the test's own timeout instead. */
const UNTIL_DONE = { timeout: 60_000, interval: 10 };
/** A request timeout no test outlives: only the abort can end a request the BMC never answers. */
const NEVER_MS = 3_600_000;

describe("aborting a client's requests (AbortSignal)", () => {
  let bmc: FakeBmc;
  /** What /redfish/v1/hold waits for before it answers. */
  let holdUntil: Promise<void> = Promise.resolve();
  beforeAll(async () => {
    bmc = await FakeBmc.start(async (request, response) => {
      if (request.method === "POST" && request.url === "/redfish/v1/SessionService/Sessions") {
        return sendJson(
          response,
          201,
          { "@odata.id": "/redfish/v1/SessionService/Sessions/1" },
          { "X-Auth-Token": "token-1", Location: "/redfish/v1/SessionService/Sessions/1" },
        );
      }
      if (request.method === "DELETE") return sendJson(response, 204, undefined);
      // Never answered: such a request ends only when the client gives up on it (abort, timeout).
      if (request.url.startsWith("/redfish/v1/slow"))
        return new Promise((resolve) => response.once("close", resolve));
      if (request.url === "/redfish/v1/hold") await holdUntil;
      if (request.url === "/redfish/v1/busy")
        return sendJson(response, 503, redfishError("Base.1.8.ServiceTemporarilyUnavailable"));
      return sendJson(response, 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());

  const client = (
    signal: AbortSignal,
    options: Partial<ConstructorParameters<typeof RedfishClient>[0]> = {},
  ) =>
    new RedfishClient({
      address: bmc.url,
      signal,
      requestTimeoutMs: NEVER_MS,
      pool: new BmcConnectionPool(),
      ...options,
    });

  it("ends requests in flight at once with RedfishAbortedError (the reason in its message); the BMC sees them dropped", async () => {
    const controller = new AbortController();
    const redfish = client(controller.signal);
    const pending = [redfish.get("/redfish/v1/slow/1"), redfish.get("/redfish/v1/slow/2")].map((p) =>
      p.catch((e: unknown) => e),
    );
    await vi.waitFor(() => expect(bmc.inFlight).toBe(2), UNTIL_DONE);
    // The BMC never answers them and no timeout comes due: the abort is what ends them.
    controller.abort(new Error("the exploration exceeded 300 ms"));
    const errors = await Promise.all(pending);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RedfishAbortedError);
      expect(error).toMatchObject({ code: "redfish_aborted", status: "ABORTED" });
      expect((error as Error).message).toMatch(
        /GET \/redfish\/v1\/slow\/\d on .*: aborted \(the exploration exceeded 300 ms\)/,
      );
    }
    await vi.waitFor(() => expect(bmc.inFlight).toBe(0), UNTIL_DONE);
    await redfish.close();
  });

  it("sends nothing once aborted", async () => {
    const controller = new AbortController();
    const redfish = client(controller.signal);
    controller.abort();
    const before = bmc.requests.length;
    await expect(redfish.get("/redfish/v1/Systems")).rejects.toBeInstanceOf(RedfishAbortedError);
    await expect(redfish.post("/redfish/v1/Systems/1/Actions/X", {})).rejects.toBeInstanceOf(
      RedfishAbortedError,
    );
    expect(bmc.requests.length).toBe(before);
    await redfish.close();
  });

  it("takes a request waiting for the BMC's concurrency cap out of the queue; the other clients are unaffected", async () => {
    const pool = new BmcConnectionPool();
    const other = new RedfishClient({ address: bmc.url, maxConcurrency: 1, pool });
    const controller = new AbortController();
    const redfish = client(controller.signal, { maxConcurrency: 1, pool });
    let answerHold = () => {};
    holdUntil = new Promise<void>((resolve) => {
      answerHold = resolve;
    });
    // Holds the BMC's one slot until the test lets the BMC answer it.
    const holding = other.get("/redfish/v1/hold");
    await vi.waitFor(() => expect(redfish.limiter.inUse).toBe(1), UNTIL_DONE);
    const queued = redfish.get("/redfish/v1/Systems/queued").catch((e: unknown) => e);
    await vi.waitFor(() => expect(redfish.limiter.waiting).toBe(1), UNTIL_DONE);
    controller.abort();
    expect(await queued).toBeInstanceOf(RedfishAbortedError);
    expect(redfish.limiter.waiting).toBe(0);
    answerHold();
    await expect(holding).resolves.toMatchObject({ "@odata.id": "/redfish/v1/hold" });
    expect(bmc.requests.some((r) => r.url === "/redfish/v1/Systems/queued")).toBe(false);
    expect(redfish.limiter.inUse).toBe(0);
    await Promise.all([other.close(), redfish.close()]);
  });

  it("cuts a retry backoff short", async () => {
    const controller = new AbortController();
    const logs = captureLogger();
    // A backoff no test outlives: the request can only end early if the abort cuts it.
    const redfish = client(controller.signal, {
      retry: { retries: 2, baseDelayMs: NEVER_MS, maxDelayMs: NEVER_MS },
      logger: logs.logger,
    });
    const before = bmc.requests.length;
    const pending = redfish.get("/redfish/v1/busy").catch((e: unknown) => e);
    // Logged just before the client starts waiting out the backoff.
    await vi.waitFor(
      () => expect(logs.records.some((record) => record.message.startsWith("redfish retry"))).toBe(true),
      UNTIL_DONE,
    );
    controller.abort();
    expect(await pending).toBeInstanceOf(RedfishAbortedError);
    expect(bmc.requests.length).toBe(before + 1);
    await redfish.close();
  });

  it("aborts one request through its own signal and leaves the client usable", async () => {
    const redfish = new RedfishClient({ address: bmc.url, pool: new BmcConnectionPool() });
    const controller = new AbortController();
    const slow = redfish.get("/redfish/v1/slow/own", { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(
      () => expect(bmc.requests.some((r) => r.url === "/redfish/v1/slow/own")).toBe(true),
      UNTIL_DONE,
    );
    controller.abort();
    expect(await slow).toBeInstanceOf(RedfishAbortedError);
    await expect(redfish.get("/redfish/v1/Chassis")).resolves.toMatchObject({
      "@odata.id": "/redfish/v1/Chassis",
    });
    await redfish.close();
  });

  it("still reports the request timeout as a timeout when a signal is attached", async () => {
    // The BMC never answers, so the 100 ms request timeout is the one way this request can end.
    const redfish = client(new AbortController().signal, { requestTimeoutMs: 100, retry: { retries: 0 } });
    const error = await redfish.get("/redfish/v1/slow/timeout").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedfishTimeoutError);
    expect(error).toMatchObject({ phase: "request", timeoutMs: 100 });
    await redfish.close();
  });

  it("still logs the session out on close after the signal fired", async () => {
    const controller = new AbortController();
    const redfish = client(controller.signal, {
      auth: "session",
      credentials: { username: "admin", password: PASSWORD },
    });
    await redfish.get("/redfish/v1/Systems");
    controller.abort();
    await expect(redfish.get("/redfish/v1/Systems")).rejects.toBeInstanceOf(RedfishAbortedError);
    await redfish.close();
    expect(bmc.requests.at(-1)).toMatchObject({
      method: "DELETE",
      url: "/redfish/v1/SessionService/Sessions/1",
    });
  });
});

describe("Semaphore.acquire with a signal", () => {
  it("leaves the queue on abort without taking or leaking a slot", async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const waiting = semaphore.acquire(controller.signal);
    const next = semaphore.acquire();
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(semaphore.waiting).toBe(1);
    release();
    (await next)();
    expect(semaphore.inUse).toBe(0);
    await expect(semaphore.acquire(controller.signal)).rejects.toThrow("gone");
    expect(semaphore.inUse).toBe(0);
  });
});
