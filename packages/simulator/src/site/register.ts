import { type DhcpLease, type ExpectedMachine, ServiceClient } from "@racksmith/server";
import type { Fleet } from "../fleet/index.js";
import { SimulatedSiteMismatchError } from "./errors.js";
import { type ExpectedMachineMatch, matchExpectedMachines } from "./expectedMachineMatch.js";

/** DHCP discoveries sent at once: fast for thousands of BMCs, gentle on the service. */
const DISCOVERY_CONCURRENCY = 8;
/** MACs named in a mismatch message; the rest are counted. */
const NAMED_MACS = 5;

export interface Registration {
  server: string;
  /** The fleet's expected machines, all held by the service now. */
  expectedMachines: number;
  /** Of those, the ones the service already held exactly so (a resumed site): not sent again. */
  alreadyExpected: number;
  discoveries: number;
}

export interface RegisterFleetOptions {
  /** The service is the fleet's own site: machines it holds that are not the fleet's are refused too. */
  exclusive?: boolean;
}

/**
 * Registers a fleet as an operator and a DHCP relay would: the expected machines the service does not hold
 * yet in one batch (all or nothing), then one discovery per BMC; the address the service hands out becomes
 * the BMC's address. Machines the service already holds exactly as the fleet describes them are accepted as
 * they are (a resumed site; a discovery renews a lease), but a service holding them otherwise (or, when
 * `exclusive`, holding other machines) is refused with `SimulatedSiteMismatchError` before anything is sent.
 * Give it the service's URL, or a client of its own (the CLI passes its `ServiceClient`, so its commands see
 * its errors).
 */
export async function registerFleet(
  fleet: Fleet,
  server: string | Pick<ServiceClient, "base" | "request">,
  options: RegisterFleetOptions = {},
): Promise<Registration> {
  const service = typeof server === "string" ? new ServiceClient(server) : server;
  const { machines } = await service.request<{ machines: ExpectedMachine[] }>(
    "GET",
    "/api/v1/expected-machines",
  );
  const match = matchExpectedMachines(fleet.expectedMachines, machines);
  const differences = mismatches(match, options.exclusive === true);
  if (differences.length > 0) {
    throw new SimulatedSiteMismatchError(
      service.base,
      differences,
      "register the same fleet (same hosts and seed) to resume, or start afresh with a service that holds none of these machines",
    );
  }
  if (match.missing.length > 0) {
    await service.request("POST", "/api/v1/expected-machines/batch", {
      machines: match.missing,
      mode: "add",
    });
  }
  const queue = [...fleet.discoveries];
  const workers = Array.from({ length: Math.min(DISCOVERY_CONCURRENCY, queue.length) }, async () => {
    for (let discovery = queue.shift(); discovery; discovery = queue.shift()) {
      const lease = await service.request<DhcpLease>("POST", "/api/v1/dhcp/discover", discovery);
      fleet.assign(lease.address, discovery.mac);
    }
  });
  await Promise.all(workers);
  return {
    server: service.base,
    expectedMachines: fleet.expectedMachines.length,
    alreadyExpected: match.same,
    discoveries: fleet.discoveries.length,
  };
}

/** What keeps the fleet from resuming on this service, one line per kind. */
function mismatches(match: ExpectedMachineMatch, exclusive: boolean): string[] {
  const lines: string[] = [];
  if (match.changed.length > 0) {
    const named = match.changed.map(({ bmcMac, fields }) => `${bmcMac}: ${fields.join(", ")}`);
    lines.push(
      `${match.changed.length} of the fleet's machines are expected with other values (${someOf(named)})`,
    );
  }
  if (exclusive && match.foreign.length > 0) {
    lines.push(`${match.foreign.length} expected machines are not the fleet's (${someOf(match.foreign)})`);
  }
  return lines;
}

function someOf(items: readonly string[]): string {
  const rest = items.length - NAMED_MACS;
  return `${items.slice(0, NAMED_MACS).join("; ")}${rest > 0 ? `; and ${rest} more` : ""}`;
}
