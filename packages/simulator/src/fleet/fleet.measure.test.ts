import { Agent, request } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { generateScenario } from "./scenario/index.js";
import { startFleet } from "./startFleet.js";

// Figures, printed for the README and the issue; nothing here asserts a duration or a size.
setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

const IDLE_HOSTS = 5_000;
const LOAD_MS = 1_500;
const CONCURRENCY = 32;
const PATHS = ["/redfish/v1", "/redfish/v1/Systems", "/redfish/v1/Managers", "/redfish/v1/Chassis"];

function get(agent: Agent, url: URL, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ agent, host: url.hostname, port: url.port, path, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("fleet figures", () => {
  it("measures memory per idle virtual BMC and requests/s for a GET mix", async () => {
    // Open the mockups once so the figure is the BMCs', not the shared trees'.
    await (await startFleet({ scenario: generateScenario({ hosts: 4 }) })).stop();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const fleet = await startFleet({
      scenario: generateScenario({ hosts: IDLE_HOSTS, addressPool: "10.64.0.0/10" }),
    });
    const startMs = performance.now() - started;
    gc();
    const bytesPerBmc = (process.memoryUsage().heapUsed - heapBefore) / fleet.bmcs.length;

    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const url = new URL(fleet.url);
    const targets = fleet.bmcs.slice(0, 1_000).filter((bmc) => bmc.plan.anomalies.length === 0);
    // Make the targets' services first: the load then measures answering, not creating.
    const creating = performance.now();
    for (const bmc of targets) await bmc.service();
    const createMs = (performance.now() - creating) / targets.length;
    let answered = 0;
    let failed = 0;
    const deadline = performance.now() + LOAD_MS;
    const loadStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        // Every worker makes one request at least, however late it gets going on a busy machine.
        for (let i = worker; i < CONCURRENCY || performance.now() < deadline; i += CONCURRENCY) {
          const bmc = targets[i % targets.length];
          if (!bmc?.address) continue;
          const auth = Buffer.from(`${bmc.credentials.username}:${bmc.credentials.password}`).toString(
            "base64",
          );
          const status = await get(agent, url, PATHS[i % PATHS.length] ?? "/redfish/v1", {
            forwarded: `host=${bmc.address}`,
            authorization: `Basic ${auth}`,
          });
          if (status === 200) answered++;
          else failed++;
        }
      }),
    );
    const perSecond = answered / ((performance.now() - loadStarted) / 1000);
    const created = fleet.stats.created;
    agent.destroy();
    gc();
    const idleHeap = heapBefore + bytesPerBmc * fleet.bmcs.length;
    const bytesPerActiveBmc = (process.memoryUsage().heapUsed - idleHeap) / created + bytesPerBmc;
    await fleet.stop();

    console.log(
      `[fleet] ${fleet.bmcs.length} virtual BMCs planned and started in ${startMs.toFixed(0)} ms, ` +
        `${Math.round(bytesPerBmc)} bytes per idle BMC, ${Math.round(bytesPerActiveBmc)} per BMC that answered ` +
        `(${createMs.toFixed(2)} ms to make one); ` +
        `${Math.round(perSecond)} requests/s ` +
        `(GET mix over ${targets.length} BMCs, ${CONCURRENCY} connections, load generator in the same process)`,
    );
    expect(failed).toBe(0);
    expect(answered).toBeGreaterThan(0);
    expect(created).toBeLessThanOrEqual(targets.length);
  }, 60_000);
});
