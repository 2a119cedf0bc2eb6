import { RacksmithError } from "@racksmith/core";
import type { DhcpLease } from "@racksmith/server";
import type { Fleet } from "../fleet/index.js";
import { SimulatedSiteServiceError } from "./errors.js";

/** DHCP discoveries sent at once: fast for thousands of BMCs, gentle on the service. */
const DISCOVERY_CONCURRENCY = 8;

export interface Registration {
  server: string;
  expectedMachines: number;
  discoveries: number;
}

/**
 * The service's REST API as `registerFleet` calls it: JSON in and out, an error answer thrown. The CLI passes
 * its own client (so its commands see the errors they know); a URL gets `serviceRequester(url)`.
 */
export interface ServiceRequester {
  /** The service's base URL (`http://127.0.0.1:8080`). */
  readonly base: string;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/**
 * Registers a fleet as an operator and a DHCP relay would: the expected machines in one batch (all or
 * nothing), then one discovery per BMC; the address the service hands out becomes the BMC's address.
 */
export async function registerFleet(fleet: Fleet, server: string | ServiceRequester): Promise<Registration> {
  const service = typeof server === "string" ? serviceRequester(server) : server;
  const { applied } = await service.request<{ applied: number }>("POST", "/api/v1/expected-machines/batch", {
    machines: fleet.expectedMachines,
    mode: "add",
  });
  const queue = [...fleet.discoveries];
  const workers = Array.from({ length: Math.min(DISCOVERY_CONCURRENCY, queue.length) }, async () => {
    for (let discovery = queue.shift(); discovery; discovery = queue.shift()) {
      const lease = await service.request<DhcpLease>("POST", "/api/v1/dhcp/discover", discovery);
      fleet.assign(lease.address, discovery.mac);
    }
  });
  await Promise.all(workers);
  return { server: service.base, expectedMachines: applied, discoveries: fleet.discoveries.length };
}

/**
 * A requester over `fetch`: an unreachable service is `service_unreachable`, an error answer a
 * `SimulatedSiteServiceError` with the service's code and details.
 */
export function serviceRequester(url: string): ServiceRequester {
  const base = url.replace(/\/+$/, "");
  return {
    base,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${base}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      }).catch((error: unknown) => {
        const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
        throw new RacksmithError(
          "service_unreachable",
          "UNAVAILABLE",
          `cannot reach the Racksmith service at ${base}: ${reason}`,
        );
      });
      const text = await response.text();
      if (!response.ok)
        throw SimulatedSiteServiceError.fromAnswer(`${method} ${path}`, response.status, text);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
