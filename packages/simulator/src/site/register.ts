import { type DhcpLease, ServiceClient } from "@racksmith/server";
import type { Fleet } from "../fleet/index.js";

/** DHCP discoveries sent at once: fast for thousands of BMCs, gentle on the service. */
const DISCOVERY_CONCURRENCY = 8;

export interface Registration {
  server: string;
  expectedMachines: number;
  discoveries: number;
}

/**
 * Registers a fleet as an operator and a DHCP relay would: the expected machines in one batch (all or
 * nothing), then one discovery per BMC; the address the service hands out becomes the BMC's address. Give it
 * the service's URL, or a client of its own (the CLI passes its `ServiceClient`, so its commands see its errors).
 */
export async function registerFleet(
  fleet: Fleet,
  server: string | Pick<ServiceClient, "base" | "request">,
): Promise<Registration> {
  const service = typeof server === "string" ? new ServiceClient(server) : server;
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
