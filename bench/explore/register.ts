import { request } from "node:http";
import type { DhcpLease } from "@racksmith/server";
import type { Fleet } from "@racksmith/simulator";

/** Rows per batch request: well under the REST server's 1 MiB body limit whatever the fleet size. */
const BATCH_ROWS = 500;
/** DHCP discoveries in flight, as `racksmith simulate fleet` sends them. */
const DISCOVERY_CONCURRENCY = 8;

/** Where the service answers, and the admin token every request sends. */
export interface ServiceTarget {
  url: string;
  token: string;
}

export interface Registration {
  expectedMachines: number;
  discoveries: number;
  /** A BMC address the service handed out (the one the run is requested through). */
  firstAddress: string;
}

/**
 * Registers the fleet through the service's REST API as an operator and a DHCP relay would (see `racksmith
 * simulate fleet`): the expected machines in batches, then one discovery per BMC, moving each virtual BMC to
 * the address the service handed out.
 */
export async function registerFleet(base: ServiceTarget, fleet: Fleet): Promise<Registration> {
  let expectedMachines = 0;
  for (let i = 0; i < fleet.expectedMachines.length; i += BATCH_ROWS) {
    const { applied } = await call<{ applied: number }>(base, "POST", "/api/v1/expected-machines/batch", {
      machines: fleet.expectedMachines.slice(i, i + BATCH_ROWS),
      mode: "add",
    });
    expectedMachines += applied;
  }
  const queue = [...fleet.discoveries];
  let firstAddress: string | undefined;
  await Promise.all(
    Array.from({ length: Math.min(DISCOVERY_CONCURRENCY, queue.length) }, async () => {
      for (let discovery = queue.shift(); discovery; discovery = queue.shift()) {
        const lease = await call<DhcpLease>(base, "POST", "/api/v1/dhcp/discover", discovery);
        fleet.assign(lease.address, discovery.mac);
        firstAddress ??= lease.address;
      }
    }),
  );
  if (!firstAddress) throw new Error("the fleet has no BMC to register");
  return { expectedMachines, discoveries: fleet.discoveries.length, firstAddress };
}

/**
 * One JSON request to the service; a non-2xx answer throws with the service's error body. Each request has
 * its own connection (`Connection: close`): a keep-alive connection that is busy while the service stops
 * would hold its REST server open until the keep-alive timeout (~70 s; see README.md).
 */
export async function call<T>(
  base: ServiceTarget,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<T> {
  const text = await send(base, method, path, body);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The body of a 2xx answer as text. */
export function send(
  base: ServiceTarget,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<string> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(path, base.url),
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${base.token}`,
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(text);
          else reject(new Error(`${method} ${path}: HTTP ${status}: ${text.slice(0, 500)}`));
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}
