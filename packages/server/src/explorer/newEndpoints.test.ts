import { silentLogger } from "@racksmith/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import type { DhcpLease } from "../inventory/contracts.js";
import { preferredAddress } from "../inventory/dhcp/index.js";
import { inventoryFeature, openInventory } from "../inventory/index.js";
import { ipv4ToNumber, parseIpv4Pool } from "../inventory/ipv4.js";
import { type RunningService, startService } from "../service/index.js";
import { waitFor } from "../testing/index.js";
import { FakeRedfishBmc } from "./__fixtures__/fakeRedfishBmc.js";
import { TestCredentialStore } from "./__fixtures__/memoryCredentials.js";
import { createSiteExplorerFeature } from "./feature.js";
import type { EndpointSummary } from "./views.js";

const FACTORY = "factory-pw-123";
const SITE = "site-pw-456";
// Every pool address is a loopback address; the fake BMC listens on the first one.
const POOL = "127.0.0.0/29";

/** A MAC the pool hands 127.0.0.1 to (the first address its search tries). */
function macLeasedFirstAddress(): string {
  const pool = parseIpv4Pool(POOL);
  if ("problem" in pool) throw new Error(pool.problem);
  for (let n = 0; n < 256; n++) {
    const mac = `AA:00:00:00:01:${n.toString(16).padStart(2, "0").toUpperCase()}`;
    if (preferredAddress(pool, mac) === ipv4ToNumber("127.0.0.1")) return mac;
  }
  throw new Error("no MAC hashes to 127.0.0.1");
}

describe("a BMC found by DHCP (inventory and site explorer in one service)", () => {
  let service: RunningService;
  let base: string;
  let bmc: FakeRedfishBmc;

  beforeAll(async () => {
    bmc = await FakeRedfishBmc.start({ password: FACTORY, serial: "SER-NEW" });
    const config: LoadedConfig = {
      config: {
        ...structuredClone(DEFAULT_CONFIG),
        server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
        inventory: { dhcp: { underlayPool: POOL } },
        // The next periodic run is ten minutes away: only the announcement can explain an exploration.
        siteExplorer: {
          intervalMs: 600_000,
          bmc: { scheme: "http", port: Number(new URL(bmc.address).port), requestTimeoutMs: 2_000 },
        },
      },
      file: undefined,
      baseDir: process.cwd(),
    };
    const credentials = new TestCredentialStore([
      [
        { kind: "factory-default", vendor: "contoso" },
        { username: "root", password: FACTORY },
      ],
      [{ kind: "site-bmc-root" }, { username: "root", password: SITE }],
    ]);
    service = await startService({
      config,
      logger: silentLogger,
      inMemoryDatabase: true,
      features: [
        inventoryFeature,
        createSiteExplorerFeature({
          standaloneLifecycle: true,
          inventory: (context) => openInventory({ ...context, credentials }),
          newEndpointDelayMs: 100,
        }),
      ],
    });
    base = `http://127.0.0.1:${service.http.port}`;
  });
  afterAll(async () => {
    await service?.stop();
    await bmc?.stop();
  });

  const auth = () => ({ authorization: `Bearer ${service.adminToken}` });
  const endpoints = async (): Promise<EndpointSummary[]> =>
    (
      (await (await fetch(`${base}/api/v1/site-explorer/endpoints`, { headers: auth() })).json()) as {
        endpoints: EndpointSummary[];
      }
    ).endpoints;

  it("is explored soon after its first lease, not at the next periodic run", async () => {
    // The run at start has found nothing to explore.
    await waitFor(
      async () =>
        /racksmith_site_explorer_iteration_duration_seconds_count 1\b/.test(await service.metrics.metrics()),
      { what: "the first run" },
    );
    expect(await endpoints()).toEqual([]);

    const mac = macLeasedFirstAddress();
    const response = await fetch(`${base}/api/v1/dhcp/discover`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth() },
      body: JSON.stringify({ mac, vendorClass: "contoso" }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()) as DhcpLease).toMatchObject({ mac, address: "127.0.0.1", static: false });

    const [explored] = await waitFor(
      async () => {
        const found = await endpoints();
        return found.some((endpoint) => endpoint.reportVersion > 0) && found;
      },
      { what: "the new BMC to be explored", timeoutMs: 5_000 },
    );
    expect(explored).toMatchObject({ address: "127.0.0.1", bmcMac: mac, vendor: "Contoso", lastError: null });
    expect(bmc.password).toBe(SITE);
  });
});
