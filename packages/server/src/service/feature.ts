import type { Logger } from "@racksmith/core";
import type { StateEngine, StateMachine } from "@racksmith/core/engine";
import type { Registry } from "prom-client";
import type { GrpcServiceModule, RestRoutes } from "../api/index.js";
import type { AgentCertificates, WorkloadIdentities } from "../auth/index.js";
import type { LoadedConfig } from "../config/index.js";
import type { Database } from "../db/index.js";
import type { PluginHost } from "../plugins/index.js";
import type { Extensions } from "./extensions.js";

/** What a feature gets when the service starts it. */
export interface FeatureContext {
  config: LoadedConfig;
  database: Database;
  /** Built with every feature's machines; started after the features' `setup`. */
  engine: StateEngine;
  host: PluginHost;
  logger: Logger;
  metrics: Registry;
  env: Readonly<Record<string, string | undefined>>;
  /** Unique per process: owner of work locks this replica takes. */
  processorId: string;
  /** Slots features fill for each other (e.g. a fabric's instance subsystem for the lifecycle). */
  extensions: Extensions;
  /** Machine certificates for agents (the agent listener's mTLS identities). */
  agentCertificates: AgentCertificates;
  /** Tenants' workload identities (JWT-SVIDs) a machine's agent asks for. */
  workloadIdentities: Pick<WorkloadIdentities, "issue">;
}

/** What a feature's config check sees: the config and the loaded plugins. No database is open yet. */
export interface ConfigCheckContext {
  config: LoadedConfig;
  host: PluginHost;
}

/** What a started feature contributes to the running service. */
export interface FeatureRuntime {
  rest?: RestRoutes;
  grpc?: readonly GrpcServiceModule[];
  /** Readiness checks beyond the database's (e.g. a credential store that cannot be read). */
  readiness?(): Promise<Array<{ name: string; ok: boolean; detail: string }>>;
  /** Runs once the engine runs and the servers listen (periodic jobs start here). */
  start?(): Promise<void>;
  /** Stops what `start` started; called before the engine stops. */
  stop?(): Promise<void>;
}

/**
 * One capability of the service (inventory, site explorer, lifecycle…), composed by `startService` the way
 * fastify composes plugins: each declares its state machines, then sets itself up with the shared database,
 * engine and plugin host, and hands back its routes, gRPC services and background work.
 */
export interface ServiceFeature {
  name: string;
  /**
   * Checks this feature's config before the database is opened or migrated: what the file's schema cannot
   * say (a CIDR's prefix, two keys that must agree) and names the loaded plugins must register. Returns one
   * problem per bad key, each naming it (`inventory.dhcp.underlayPool: …`); `startService` reports every
   * feature's at once and opens nothing.
   */
  validateConfig?(context: ConfigCheckContext): readonly string[];
  /** State machines the engine runs for this feature. */
  machines?(config: LoadedConfig): readonly StateMachine[];
  setup(context: FeatureContext): Promise<FeatureRuntime>;
}
