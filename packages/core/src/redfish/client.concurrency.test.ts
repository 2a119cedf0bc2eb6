import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { BmcConnectionPool } from "./connectionPool.js";

/** vi.waitFor gives up after 1 s by default; these waits are bounded by the test's own timeout instead. */
const UNTIL_DONE = { timeout: 60_000, interval: 10 };

describe("per-BMC concurrency cap", () => {
  let bmc: FakeBmc;
  /** While set, the BMC holds every request until the test answers it (see answerInRounds). */
  let holding = false;
  const held: Array<() => void> = [];
  beforeAll(async () => {
    bmc = await FakeBmc.start(async (request, response) => {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      sendJson(response, 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());

  /**
   * Answers `total` requests in rounds: each round waits until `cap` of them (or all that are left) are at the
   * BMC at once, unanswered, then answers them together.
   */
  async function answerInRounds(total: number, cap: number): Promise<void> {
    for (let answered = 0; answered < total; ) {
      const expected = Math.min(cap, total - answered);
      await vi.waitFor(() => expect(held.length).toBeGreaterThanOrEqual(expected), UNTIL_DONE);
      const round = held.splice(0);
      answered += round.length;
      for (const answer of round) answer();
    }
  }

  it("never has more than the cap in flight, measured at the BMC, across every client of that BMC", async () => {
    const pool = new BmcConnectionPool();
    const explorer = new RedfishClient({ address: bmc.url, maxConcurrency: 3, pool });
    const monitor = new RedfishClient({ address: bmc.url, maxConcurrency: 3, pool });
    bmc.maxInFlight = 0;
    holding = true;
    const all = Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? explorer : monitor).get(`/redfish/v1/Chassis/${i}`)),
    );
    await answerInRounds(24, 3);
    holding = false;
    await all;
    expect(bmc.requests.length).toBeGreaterThanOrEqual(24);
    expect(bmc.maxInFlight).toBe(3);
    await explorer.close();
    await monitor.close();
    expect(pool.size).toBe(0);
  });

  it("keeps a BMC's connections for the next client within idleCloseMs, and not with 0", async () => {
    for (const [idleCloseMs, connections] of [
      [60_000, 1],
      [0, 2],
    ] as const) {
      const pool = new BmcConnectionPool({ idleCloseMs });
      const before = bmc.connections;
      for (let step = 0; step < 2; step++) {
        // One short-lived client per step, as the lifecycle makes them.
        const client = new RedfishClient({ address: bmc.url, pool, maxConcurrency: 1 });
        await client.get("/redfish/v1");
        await client.close();
      }
      expect(bmc.connections - before).toBe(connections);
      await pool.closeAll();
    }
  });

  it("closes a BMC's connections at once after a client that keeps none, unless another client holds them", async () => {
    const pool = new BmcConnectionPool({ idleCloseMs: 60_000 });
    const before = bmc.connections;
    for (let step = 0; step < 2; step++) {
      // The monitor: back in a minute, so nothing is kept for it.
      const client = new RedfishClient({ address: bmc.url, pool, maxConcurrency: 1, keepConnections: false });
      await client.get("/redfish/v1");
      await client.close();
    }
    expect(bmc.connections - before).toBe(2);
    // A lifecycle client holding the BMC keeps its connections open through a monitor client's close.
    const lifecycle = new RedfishClient({ address: bmc.url, pool, maxConcurrency: 1 });
    await lifecycle.get("/redfish/v1");
    const monitor = new RedfishClient({ address: bmc.url, pool, maxConcurrency: 1, keepConnections: false });
    await monitor.get("/redfish/v1");
    await monitor.close();
    await lifecycle.get("/redfish/v1");
    expect(bmc.connections - before).toBe(3);
    await lifecycle.close();
    await pool.closeAll();
  });

  it("lets a request still in flight finish when a client that keeps no connections closes", async () => {
    const pool = new BmcConnectionPool({ idleCloseMs: 60_000 });
    const client = new RedfishClient({ address: bmc.url, pool, maxConcurrency: 1, keepConnections: false });
    holding = true;
    const abandoned = client.get("/redfish/v1/Systems/held");
    await vi.waitFor(() => expect(held.length).toBe(1), UNTIL_DONE);
    await client.close();
    holding = false;
    for (const answer of held.splice(0)) answer();
    expect(await abandoned).toMatchObject({ "@odata.id": "/redfish/v1/Systems/held" });
    await pool.closeAll();
  });

  it("defaults to four requests in flight", async () => {
    const client = new RedfishClient({ address: bmc.url, pool: new BmcConnectionPool() });
    bmc.maxInFlight = 0;
    holding = true;
    const all = Promise.all(Array.from({ length: 16 }, (_, i) => client.get(`/redfish/v1/Systems/${i}`)));
    await answerInRounds(16, 4);
    holding = false;
    await all;
    expect(bmc.maxInFlight).toBe(4);
    await client.close();
  });
});

describe("connecting through a BMC proxy", () => {
  let proxy: FakeBmc;
  beforeAll(async () => {
    proxy = await FakeBmc.start((request, response) =>
      sendJson(response, 200, { forwarded: request.headers.forwarded }),
    );
  });
  afterAll(() => proxy.stop());

  it("keeps BMCs behind one proxy apart: a slow BMC does not hold up another", async () => {
    // The slow BMC answers nothing until the test lets it.
    let answerSlow = () => {};
    const slowAnswered = new Promise<void>((resolve) => {
      answerSlow = resolve;
    });
    let slowArrived = 0;
    const slowProxy = await FakeBmc.start(async (request, response) => {
      if (String(request.headers.forwarded).includes("10.100.0.66")) {
        slowArrived++;
        await slowAnswered;
      }
      sendJson(response, 200, {});
    });
    const pool = new BmcConnectionPool();
    const slow = new RedfishClient({
      address: "http://10.100.0.66",
      connectVia: slowProxy.url,
      pool,
      maxConcurrency: 2,
    });
    const healthy = new RedfishClient({
      address: "http://10.100.0.7",
      connectVia: slowProxy.url,
      pool,
      maxConcurrency: 2,
    });
    let slowDone = false;
    const stuck = Promise.all([
      slow.get("/redfish/v1"),
      slow.get("/redfish/v1"),
      slow.get("/redfish/v1"),
    ]).then(() => {
      slowDone = true;
    });
    // Both of the slow BMC's connections are taken (its third request waits for its cap).
    await vi.waitFor(() => expect(slowArrived).toBe(2), UNTIL_DONE);
    await healthy.get("/redfish/v1");
    // Answered while the slow BMC still holds every connection of its own.
    expect(slowDone).toBe(false);
    expect(slowArrived).toBe(2);
    answerSlow();
    await stuck;
    await slow.close();
    await healthy.close();
    await slowProxy.stop();
  });

  it("dials the proxy and names the BMC in Forwarded", async () => {
    const client = new RedfishClient({
      address: "http://10.100.0.7",
      connectVia: proxy.url,
      pool: new BmcConnectionPool(),
    });
    expect(await client.get("/redfish/v1")).toEqual({ forwarded: 'host="10.100.0.7"' });
    expect(client.displayAddress).toBe("http://10.100.0.7");
    await client.close();
  });
});
