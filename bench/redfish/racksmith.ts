import {
  type BmcDriverDefinition,
  collectRegistrations,
  connectBmc,
  type ExplorationReport,
  exploreBmc,
  redfishStandardDriver,
  selectDriver,
} from "@racksmith/core";
import { probeService, RedfishClient, type RedfishCredentials } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";

/** Every vendor driver, as the repository's racksmith.yaml loads them; `standard` leaves RedfishStandard alone. */
export async function benchDrivers(standardOnly: boolean): Promise<BmcDriverDefinition[]> {
  if (standardOnly) return [];
  const drivers: BmcDriverDefinition[] = [];
  for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
    drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
  }
  return drivers;
}

/** `cli`: as `racksmith redfish explore` does; `site`: as the site explorer's `EndpointExplorer` does. */
export type ExplorePath = "cli" | "site";

export interface ExploreTarget {
  path: ExplorePath;
  url: string;
  credentials: RedfishCredentials;
  drivers: readonly BmcDriverDefinition[];
  /** Requests in flight to the BMC (`siteExplorer.bmc.maxConcurrency`, default 4). */
  maxConcurrency: number;
}

/** One exploration along `target.path`, with the site explorer's client settings. */
export async function exploreOnce(target: ExploreTarget): Promise<ExplorationReport> {
  // The site explorer's client settings (createBmcConnector with the siteExplorer.bmc defaults).
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("exploration deadline")), 120_000);
  const options = {
    maxConcurrency: target.maxConcurrency,
    connectTimeoutMs: 5_000,
    requestTimeoutMs: 20_000,
    retry: { retries: 1 },
    signal: deadline.signal,
  };
  const anonymous = new RedfishClient({ address: target.url, auth: "none", ...options });
  const client = new RedfishClient({ address: target.url, credentials: target.credentials, ...options });
  try {
    return target.path === "cli"
      ? await exploreAsCli(client, target.drivers)
      : await exploreAsSite(anonymous, client, target.drivers);
  } finally {
    clearTimeout(timer);
    await Promise.all([anonymous.close(), client.close()]);
  }
}

export interface LoopFigures {
  explorations: number;
  seconds: number;
  /** User + system CPU of this process during the loop, in ms. */
  cpuMs: number;
  driver: string;
}

/** Explores serially, one exploration after another, until `seconds` have passed. */
export async function exploreFor(target: ExploreTarget, seconds: number): Promise<LoopFigures> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let explorations = 0;
  let last: ExplorationReport | undefined;
  while (performance.now() < deadline) {
    last = await exploreOnce(target);
    explorations++;
  }
  const used = process.cpuUsage(cpu);
  return {
    explorations,
    seconds: (performance.now() - started) / 1000,
    cpuMs: (used.user + used.system) / 1000,
    driver: last?.driver.name ?? "",
  };
}

/**
 * `racksmith redfish explore` (packages/cli, `connect` and the `explore` operation): probe and driver selection
 * on the logged-in client, one read of the systems collection to prove the login, the driver's `explore()`.
 */
async function exploreAsCli(
  client: RedfishClient,
  drivers: readonly BmcDriverDefinition[],
): Promise<ExplorationReport> {
  const { driver, selection } = await connectBmc(client, { drivers, fallback: redfishStandardDriver });
  await client.get("/redfish/v1/Systems");
  const report = await driver.explore();
  return {
    ...report,
    driver: { name: driver.name, pinned: selection.pinned },
    candidates: selection.candidates,
  };
}

/**
 * The site explorer's `EndpointExplorer` minus the credential store: an anonymous probe and driver selection,
 * a login proved by one authenticated read of the systems collection, then `exploreBmc` (probe, selection,
 * the driver's `explore()`) on the logged-in client.
 */
async function exploreAsSite(
  anonymous: RedfishClient,
  client: RedfishClient,
  drivers: readonly BmcDriverDefinition[],
): Promise<ExplorationReport> {
  const probe = await probeService(anonymous);
  selectDriver(drivers, probe, { fallback: redfishStandardDriver });
  await client.get(probe.serviceRoot.Systems?.["@odata.id"] ?? "/redfish/v1/Systems");
  return exploreBmc(client, { drivers, fallback: redfishStandardDriver });
}
