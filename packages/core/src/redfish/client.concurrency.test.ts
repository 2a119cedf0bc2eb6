import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { BmcConnectionPool } from "./connectionPool.js";

describe("per-BMC concurrency cap", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start(async (request, response) => {
      await sleep(25);
      sendJson(response, 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());

  it("never has more than the cap in flight, measured at the BMC, across every client of that BMC", async () => {
    const pool = new BmcConnectionPool();
    const explorer = new RedfishClient({ address: bmc.url, maxConcurrency: 3, pool });
    const monitor = new RedfishClient({ address: bmc.url, maxConcurrency: 3, pool });
    bmc.maxInFlight = 0;
    await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? explorer : monitor).get(`/redfish/v1/Chassis/${i}`)),
    );
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

  it("defaults to four requests in flight", async () => {
    const client = new RedfishClient({ address: bmc.url, pool: new BmcConnectionPool() });
    bmc.maxInFlight = 0;
    await Promise.all(Array.from({ length: 16 }, (_, i) => client.get(`/redfish/v1/Systems/${i}`)));
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
    const slowProxy = await FakeBmc.start(async (request, response) => {
      if (String(request.headers.forwarded).includes("10.100.0.66")) await sleep(400);
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
    await sleep(20);
    await healthy.get("/redfish/v1");
    // Answered while the slow BMC still holds every connection of its own.
    expect(slowDone).toBe(false);
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
