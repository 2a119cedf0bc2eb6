import {
  type BmcDriver,
  type BmcDriverDefinition,
  type DriverContext,
  NotSupportedError,
} from "@racksmith/core";
import type { RedfishClient, ServiceProbe } from "@racksmith/core/redfish";
import { StructureSharing } from "./sharedStructure.js";

/** How long a BMC's service description is trusted: a firmware update may change it, a pass must not. */
export const SERVICE_PROBE_TTL_MS = 3_600_000;

/**
 * Each BMC's service description (root, `$metadata`, member ids: `probeService`), kept between contacts so
 * neither the BMC monitor's polls nor the lifecycle's handler runs read five resources again before their first
 * operation (bench/fleet: 235 of a host's 406 requests were such descriptions). An entry expires after `ttlMs`,
 * and a failed operation drops it (`createDriverWithCachedProbe`), so the next contact describes the BMC afresh.
 * What is kept is frozen, and shares every part equal to another BMC's (`StructureSharing`): the drivers read a
 * description, they never change it.
 */
export class ServiceProbeCache {
  private readonly entries = new Map<string, { probe: ServiceProbe; at: number }>();
  /** The driver the explorer recorded for each BMC, read once per `ttlMs` rather than at every contact. */
  private readonly drivers = new Map<string, { name: string; at: number }>();
  private readonly sharing = new StructureSharing();

  constructor(
    private readonly ttlMs: number = SERVICE_PROBE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(address: string): ServiceProbe | undefined {
    return this.fresh(this.entries, address)?.probe;
  }

  set(address: string, probe: ServiceProbe): void {
    this.entries.set(address, { probe: this.kept(probe), at: this.now() });
  }

  /**
   * The name of the driver the explorer chose for the BMC, as read within `ttlMs`; trusted and dropped with the
   * description (a changed BMC fails an operation, which drops both).
   */
  driverOf(address: string): string | undefined {
    return this.fresh(this.drivers, address)?.name;
  }

  setDriver(address: string, name: string): void {
    this.drivers.set(address, { name, at: this.now() });
  }

  delete(address: string): void {
    this.entries.delete(address);
    this.drivers.delete(address);
  }

  /** Forgets every BMC not in `addresses` (machines that left the fleet). */
  retain(addresses: ReadonlySet<string>): void {
    for (const address of this.entries.keys()) if (!addresses.has(address)) this.entries.delete(address);
    for (const address of this.drivers.keys()) if (!addresses.has(address)) this.drivers.delete(address);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry kept for a BMC, unless it is older than `ttlMs` (then it is dropped). */
  private fresh<T extends { at: number }>(map: Map<string, T>, address: string): T | undefined {
    const entry = map.get(address);
    if (entry && this.now() - entry.at >= this.ttlMs) {
      map.delete(address);
      return undefined;
    }
    return entry;
  }

  /** Every member shared as it is, the root's own object aside (its UUID makes each BMC's unique). */
  private kept(probe: ServiceProbe): ServiceProbe {
    const { serviceRoot, ...members } = probe;
    return { ...this.sharing.shareMembers(members), serviceRoot: this.sharing.shareMembers(serviceRoot) };
  }
}

/**
 * Creates a BMC's driver with its cached service description; without one, the driver describes the BMC
 * (as its first operation would have) and the result is kept for the next contact. Any operation of the
 * driver that fails for another reason than lacking support drops the description: a firmware update or a
 * reset may have changed the service, and the next contact must not act on the old one.
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
  return forgettingOnFailure(driver, () => cache.delete(address));
}

/** The driver, whose asynchronous operations call `forget` when they fail (NotSupportedError aside). */
function forgettingOnFailure(driver: BmcDriver, forget: () => void): BmcDriver {
  const onFailure = (error: unknown): never => {
    if (!(error instanceof NotSupportedError)) forget();
    throw error;
  };
  return new Proxy(driver, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        return result instanceof Promise ? result.catch(onFailure) : result;
      };
    },
  });
}
