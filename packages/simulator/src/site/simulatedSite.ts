import { randomUUID } from "node:crypto";
import { type Logger, silentLogger } from "@racksmith/core";
import type { ObjectStateView } from "@racksmith/core/engine";
import type { NmxmSimulator } from "@racksmith/fabric-nmxm/simulator";
import type { UfmSimulator } from "@racksmith/fabric-ufm/testing";
import {
  type LoadedConfig,
  loadConfig,
  MANAGED_HOST_OBJECT_TYPE,
  openDatabase,
  type RunningService,
  ServiceClient,
  startService,
} from "@racksmith/server";
import { type AgentTiming, type SimulatedAgents, startSimulatedAgents } from "../agents/index.js";
import { type Fleet, generateScenario, startFleet } from "../fleet/index.js";
import { SimulatedSiteMismatchError } from "./errors.js";
import { type SimulatedNmxmOptions, startSimulatedNmxm } from "./nmxm.js";
import { type Registration, registerFleet } from "./register.js";
import { fastTimings, type SimulatedSiteSections, writeSimulatedSite } from "./siteFiles.js";
import { checkSiteManifest, type SiteIdentity, writeSiteManifest } from "./siteManifest.js";
import { type SimulatedUfmOptions, startSimulatedUfm } from "./ufm.js";

export interface SimulatedSiteOptions {
  hosts: number;
  /** Scenario seed (serials, MACs, models). */
  seed?: number;
  /** The operator's config: which plugins (drivers) and driver settings the site runs with. */
  base: LoadedConfig;
  /**
   * The site folder (config, secrets, embedded database). A folder whose database holds this site (same
   * hosts and seed) is resumed; one holding another site is refused (`SimulatedSiteMismatchError`).
   */
  dir: string;
  /** PostgreSQL instead of the embedded database: a fresh schema is made, and dropped by `stop`. */
  databaseUrl?: string;
  http?: string;
  grpc?: string;
  /** Sections merged over the fast timings (tests shorten SLAs, …). */
  sections?: Partial<
    Pick<SimulatedSiteSections, "engine" | "siteExplorer" | "lifecycle" | "health" | "monitor" | "auth">
  >;
  agentTiming?: Partial<AgentTiming>;
  logger?: Logger;
  /** A UFM simulator wired to the hosts' IB ports, configured as `fabrics.infiniband`. */
  ufm?: boolean | SimulatedUfmOptions;
  /** An NMX-M simulator wired to the hosts' GPUs, configured as `fabrics.nvlink`. */
  nmxm?: boolean | SimulatedNmxmOptions;
  /**
   * Called once the virtual BMCs exist, before the service knows any of them: faults a test wants in place
   * from the first request (a host that must fail a step it would otherwise be past already).
   */
  prepareFleet?: (fleet: Fleet) => void;
}

/** `racksmith serve` with a simulated rack: virtual BMCs, DPU and host agents, all in this process. */
export interface SimulatedSite {
  readonly service: RunningService;
  readonly fleet: Fleet;
  readonly agents: SimulatedAgents;
  readonly registration: Registration;
  /** The folder's database already held this site: it was resumed, not registered afresh. */
  readonly resumed: boolean;
  readonly url: string;
  /** The service's admin token, which the site's registration and agents use. */
  readonly token: string;
  readonly grpcAddress: string;
  readonly configFile: string;
  /** The UFM simulator (with `ufm`), to inspect and fault. */
  readonly ufm?: UfmSimulator;
  /** The NMX-M simulator (with `nmxm`), to inspect and fault. */
  readonly nmxm?: NmxmSimulator;
  /** Every managed host's lifecycle state (labels, outcomes, SLA), in id order. */
  hostStates(): Promise<ObjectStateView[]>;
  stop(): Promise<void>;
}

/**
 * Starts a fleet of `hosts` hosts (one BlueField DPU each), the service over it, and the agents. Run again on
 * the same folder with the same hosts and seed, it resumes the site its embedded database holds.
 */
export async function startSimulatedSite(options: SimulatedSiteOptions): Promise<SimulatedSite> {
  // The fleet plan's default seed, so a run without one resumes a site made without one.
  const identity: SiteIdentity = { hosts: options.hosts, seed: options.seed ?? 1 };
  // A PostgreSQL site gets a fresh schema each run: only the embedded database lives on in the folder.
  const embedded = options.databaseUrl === undefined;
  if (embedded) await checkSiteManifest(options.dir, identity);
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const fleet = await startFleet({
      scenario: generateScenario({ hosts: identity.hosts, seed: identity.seed }),
      service: { taskDurationMs: 50 },
    });
    cleanups.push(() => fleet.stop());
    options.prepareFleet?.(fleet);
    const database = await databaseSection(options.databaseUrl, cleanups);
    const ufm = options.ufm
      ? await startSimulatedUfm(fleet, options.dir, options.ufm === true ? {} : options.ufm)
      : undefined;
    if (ufm) cleanups.push(() => ufm.simulator.stop());
    const nmxm = options.nmxm
      ? await startSimulatedNmxm(fleet, options.dir, options.nmxm === true ? {} : options.nmxm)
      : undefined;
    if (nmxm) cleanups.push(() => nmxm.simulator.stop());
    const fast = fastTimings(options.hosts);
    const configFile = await writeSimulatedSite({
      dir: options.dir,
      fleet,
      base: options.base,
      sections: {
        database,
        server: { http: options.http ?? "127.0.0.1:0", grpc: options.grpc ?? "127.0.0.1:0" },
        engine: { ...fast.engine, ...options.sections?.engine },
        siteExplorer: { ...fast.siteExplorer, ...options.sections?.siteExplorer },
        lifecycle: { ...fast.lifecycle, ...options.sections?.lifecycle },
        health: { ...options.sections?.health },
        ...(options.sections?.auth ? { auth: options.sections.auth } : {}),
        monitor: { ...fast.monitor, ...options.sections?.monitor },
        ...(ufm || nmxm
          ? {
              fabrics: {
                ...(ufm ? { infiniband: ufm.section } : {}),
                ...(nmxm ? { nvlink: nmxm.section } : {}),
              },
              extraPlugins: [...(ufm ? [ufm.plugin] : []), ...(nmxm ? [nmxm.plugin] : [])],
            }
          : {}),
      },
    });
    const service = await startService({
      config: loadConfig({ file: configFile }),
      logger: options.logger ?? silentLogger,
      env: {},
    });
    cleanups.push(() => service.stop());
    const url = `http://${service.http.host}:${service.http.port}`;
    const grpcAddress = `${service.grpc.host}:${service.grpc.port}`;
    // Agents listen to their machines' power before the site knows the fleet: a DPU the lifecycle boots over
    // HTTP while the rest of the fleet is still being registered must not boot unseen.
    const agents = await startSimulatedAgents({
      fleet,
      grpcAddress,
      ...(service.adminToken ? { token: service.adminToken } : {}),
      ...(options.agentTiming ? { timing: options.agentTiming } : {}),
    });
    // Agents stop first (cleanups run last to first), so none reports into a closing server.
    cleanups.push(() => agents.stop());
    // The site's service is the fleet's alone: another fleet's machines mean another site.
    const client = new ServiceClient(url, { token: service.adminToken });
    const registration = await registerFleet(fleet, client, { exclusive: true }).catch((error: unknown) => {
      throw embedded && error instanceof SimulatedSiteMismatchError
        ? new SimulatedSiteMismatchError(
            `the database in ${options.dir}`,
            error.differences,
            `start afresh in another folder (or remove ${options.dir})`,
          )
        : error;
    });
    if (embedded) await writeSiteManifest(options.dir, identity);
    return {
      service,
      fleet,
      agents,
      registration,
      resumed: registration.alreadyExpected > 0,
      url,
      token: service.adminToken ?? "",
      grpcAddress,
      configFile,
      ...(ufm ? { ufm: ufm.simulator } : {}),
      ...(nmxm ? { nmxm: nmxm.simulator } : {}),
      hostStates: () => listHostStates(service),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Every managed host's state, a page of 1,000 at a time. */
export async function listHostStates(service: Pick<RunningService, "engine">): Promise<ObjectStateView[]> {
  const all: ObjectStateView[] = [];
  for (;;) {
    const after = all.at(-1)?.objectId;
    const page = await service.engine.listObjects(MANAGED_HOST_OBJECT_TYPE, {
      limit: 1_000,
      ...(after ? { after } : {}),
    });
    all.push(...page);
    if (page.length < 1_000) return all;
  }
}

async function databaseSection(
  url: string | undefined,
  cleanups: Array<() => Promise<void>>,
): Promise<Record<string, unknown>> {
  if (!url) return { dataDir: "data" };
  const schema = `racksmith_sim_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  cleanups.push(async () => {
    const database = await openDatabase({ url });
    try {
      await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
    } finally {
      await database.close();
    }
  });
  return { url, schema };
}
