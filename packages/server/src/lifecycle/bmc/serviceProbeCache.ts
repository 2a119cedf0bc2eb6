import type { BmcDriver, BmcDriverDefinition, DriverContext } from "@racksmith/core";
import type { RedfishClient, ServiceProbe } from "@racksmith/core/redfish";

/** How long a BMC's service description is trusted: a firmware update may change it, a pass must not. */
export const SERVICE_PROBE_TTL_MS = 3_600_000;

/**
 * Each BMC's service description (root, `$metadata`, member ids: `probeService`), kept between a caller's
 * contacts so a periodic one — the BMC monitor — does not read five resources again before every poll. An entry
 * expires after `ttlMs`; the caller drops it when a contact fails, so the next one describes the BMC afresh.
 */
export class ServiceProbeCache {
  private readonly entries = new Map<string, { probe: ServiceProbe; at: number }>();

  constructor(
    private readonly ttlMs: number = SERVICE_PROBE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(address: string): ServiceProbe | undefined {
    const entry = this.entries.get(address);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(address);
      return undefined;
    }
    return entry.probe;
  }

  set(address: string, probe: ServiceProbe): void {
    this.entries.set(address, { probe, at: this.now() });
  }

  delete(address: string): void {
    this.entries.delete(address);
  }

  /** Forgets every BMC not in `addresses` (machines that left the fleet). */
  retain(addresses: ReadonlySet<string>): void {
    for (const address of this.entries.keys()) if (!addresses.has(address)) this.entries.delete(address);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Creates a BMC's driver with its cached service description; without one, the driver describes the BMC
 * (as its first operation would have) and the result is kept for the next contact.
 */
export async function createDriverWithCachedProbe(
  definition: BmcDriverDefinition,
  client: RedfishClient,
  context: DriverContext,
  cache: ServiceProbeCache,
  address: string,
): Promise<BmcDriver> {
  const cached = cache.get(address);
  const driver = definition.create(client, cached ? { ...context, probe: cached } : context);
  if (!cached) {
    const describe = (driver as Partial<{ probe(): Promise<ServiceProbe> }>).probe;
    if (typeof describe === "function") cache.set(address, await describe.call(driver));
  }
  return driver;
}
