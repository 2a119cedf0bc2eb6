import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@racksmith/core";
import { ServiceClient } from "@racksmith/server";
import { startSimulatedSite } from "@racksmith/simulator";
import { ALL_DRIVERS } from "../allDrivers.js";

/** The service under fuzz: a simulated site (BMCs, agents, UFM and NMX-M simulators), all on loopback. */
export interface FuzzTarget {
  url: string;
  grpcAddress: string;
  /** An admin token of the fuzzer's own (not the agents'), sent with every case. */
  token: string;
  /** Stops the site and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts the site and waits (at most `waitMs`) for its hosts to be ingested, so machine ids exist. Every BMC
 * request of the service goes through the fleet's proxy (`siteExplorer.bmcProxy`), so addresses the fuzzer
 * invents reach the local simulator, never the network.
 */
export async function startFuzzTarget(options: {
  hosts: number;
  waitMs: number;
  log: (line: string) => void;
}): Promise<FuzzTarget> {
  const dir = await mkdtemp(join(tmpdir(), "racksmith-fuzz-"));
  try {
    const site = await startSimulatedSite({
      hosts: options.hosts,
      base: ALL_DRIVERS,
      dir: join(dir, "site"),
      http: "127.0.0.1:0",
      grpc: "127.0.0.1:0",
      ufm: true,
      nmxm: true,
      logger: silentLogger,
    });
    const stop = async () => {
      await site.stop();
      await rm(dir, { recursive: true, force: true });
    };
    const service = new ServiceClient(site.url, { token: site.token });
    const { token } = await service.request<{ token: string }>("POST", "/api/v1/auth/tokens", {
      role: "admin",
      subject: "chaos-fuzzer",
    });
    const deadline = Date.now() + options.waitMs;
    let machines = 0;
    while (Date.now() < deadline) {
      const answer = await service.get<{ machines?: unknown[] }>("/api/v1/machines");
      machines = answer.machines?.length ?? 0;
      if (machines >= options.hosts * 2) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    options.log(`site up at ${site.url} / ${site.grpcAddress}: ${machines} machine(s) ingested`);
    return { url: site.url, grpcAddress: site.grpcAddress, token, stop };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
