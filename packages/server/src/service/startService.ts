import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { ServerCredentials } from "@grpc/grpc-js";
import type { Logger } from "@racksmith/core";
import { CORE_VERSION, childLogger, PLUGIN_API_VERSION } from "@racksmith/core";
import { DEFAULT_ENGINE_CONFIG, StateEngine, type StateMachine } from "@racksmith/core/engine";
import { collectDefaultMetrics, type Registry } from "prom-client";
import {
  createGrpcServer,
  createRestServer,
  RACKSMITH_SERVICE,
  type RestTls,
  shutdownGrpcServer,
} from "../api/index.js";
import { type AccessRule, agentListenerCredentials, isLoopbackHost, setupAuth } from "../auth/index.js";
import { ConfigError, DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import {
  assertMigrated,
  type Database,
  migrate,
  openDatabase,
  registerConnectionMetrics,
  registerStatementMetrics,
} from "../db/index.js";
import { ExpositionRegistry, prometheusMetrics } from "../metrics/index.js";
import { createPluginHost, type PluginHost } from "../plugins/index.js";
import { engineApiContext } from "./engineApiContext.js";
import { Extensions } from "./extensions.js";
import type { FeatureRuntime, ServiceFeature } from "./feature.js";
import { DEFAULT_FEATURES } from "./features.js";
import { formatListenAddress, type ListenAddress, parseListenAddress } from "./listenAddress.js";
import { assertListenersFree, type Listener, listenFailure } from "./listenCheck.js";
import { createServiceLogger } from "./logger.js";
import { validateFeatureConfigs } from "./validateFeatureConfigs.js";

export interface ServiceOverrides {
  databaseUrl?: string;
  dataDir?: string;
  http?: string;
  grpc?: string;
}

export interface ServiceOptions {
  config: LoadedConfig;
  /** Command-line values that beat the config file. */
  overrides?: ServiceOverrides;
  env?: Readonly<Record<string, string | undefined>>;
  logger?: Logger;
  /** Features to run (default: `DEFAULT_FEATURES`). */
  features?: readonly ServiceFeature[];
  /** Extra state machines (tests). */
  machines?: readonly StateMachine[];
  /** Use an in-memory embedded database (tests). */
  inMemoryDatabase?: boolean;
  /** Authorization rules for routes outside the access table (tests' stub features). */
  accessRules?: Readonly<Record<string, AccessRule>>;
}

export interface RunningService {
  http: ListenAddress;
  grpc: ListenAddress;
  /** The agent listener (mTLS with machine certificates). */
  agentGrpc: ListenAddress;
  database: Database;
  engine: StateEngine;
  host: PluginHost;
  metrics: Registry;
  logger: Logger;
  /**
   * The bootstrap admin token (unless `auth.bootstrapAdminToken` is false): in `adminTokenFile` on disk,
   * only here for an in-memory service.
   */
  adminToken: string | undefined;
  adminTokenFile: string | undefined;
  /** Graceful: stop serving, let in-flight handlers finish within the grace period, release, close. */
  stop(): Promise<void>;
}

/**
 * Starts the core: config and plugins first (cheap, fail fast: every feature checks its config against the
 * loaded plugins before anything touches the database), then the database and its migrations, the engine,
 * and the REST and gRPC servers. Logs one line when it listens. Anything that fails to start is
 * stopped again, so a failed start leaves nothing running.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config: loaded, overrides = {}, env = process.env } = options;
  const config = loaded.config;
  const logger = options.logger ?? createServiceLogger(config.log.level);
  const http = parseListenAddress(overrides.http ?? config.server.http, "--http");
  const grpc = parseListenAddress(overrides.grpc ?? config.server.grpc, "--grpc");
  // Unset: a free port on the gRPC listener's host; agents learn it from DiscoverMachine's answer.
  const agentGrpc = config.server.agentGrpc
    ? parseListenAddress(config.server.agentGrpc, "server.agentGrpc")
    : { host: grpc.host, port: 0 };
  assertAuthForRemoteListeners(loaded, [
    { address: http, key: "server.http / --http" },
    { address: grpc, key: "server.grpc / --grpc" },
    { address: agentGrpc, key: "server.agentGrpc" },
  ]);
  const tls = await readServerTls(loaded);
  const { host } = await createPluginHost(loaded);
  const features = options.features ?? DEFAULT_FEATURES;
  validateFeatureConfigs(features, { config: loaded, host });
  const restListener: Listener = { name: "REST", address: http, key: "server.http / --http" };
  const grpcListener: Listener = { name: "gRPC", address: grpc, key: "server.grpc / --grpc" };
  const agentListener: Listener = { name: "agent gRPC", address: agentGrpc, key: "server.agentGrpc" };
  await assertListenersFree([restListener, grpcListener, agentListener]);

  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    const databaseUrl =
      overrides.databaseUrl ?? (config.database.url || env.RACKSMITH_DATABASE_URL || undefined);
    const inMemory = options.inMemoryDatabase && !databaseUrl;
    const dataDir = resolve(loaded.baseDir, overrides.dataDir ?? config.database.dataDir);
    const database = await openDatabase({
      ...(databaseUrl
        ? {
            url: databaseUrl,
            ...(config.database.schema ? { schema: config.database.schema } : {}),
            poolSize: config.database.poolSize,
            preparedStatements: config.database.preparedStatements,
            upkeepIntervalMs: config.database.upkeepIntervalMs,
          }
        : {}),
      ...(inMemory ? { inMemory: true } : { dataDir }),
      logger,
    });
    cleanups.push(() => database.close());
    const { applied } = await migrate(database);
    if (applied.length) logger.info({ applied }, "database migrated");
    const auth = await setupAuth({
      config: config.auth,
      database,
      dataDir: options.inMemoryDatabase ? undefined : dataDir,
      baseDir: loaded.baseDir,
      logger,
      ...(options.accessRules ? { extraRules: options.accessRules } : {}),
    });
    // Runs before the database closes (cleanups run last first): no audit row is lost at stop.
    cleanups.push(() => auth.audit.flush());

    const metrics = new ExpositionRegistry();
    collectDefaultMetrics({ register: metrics, prefix: "racksmith_process_" });
    registerStatementMetrics(metrics, () => database.statements());
    const connections = database.connections?.bind(database);
    if (connections) registerConnectionMetrics(metrics, connections);
    const machines = [
      ...(options.machines ?? []),
      ...features.flatMap((feature) => feature.machines?.(loaded) ?? []),
    ];
    const engine = new StateEngine({
      database,
      machines: [...machines],
      config: config.engine,
      logger,
      metrics: prometheusMetrics(metrics),
      checkDatabase: () => assertMigrated(database),
      // An embedded database belongs to this process alone: claims in it are from a killed run.
      releaseClaimsAtStart: database.kind === "pglite",
    });

    const runtimes: FeatureRuntime[] = [];
    const extensions = new Extensions();
    for (const feature of features) {
      const runtime = await feature.setup({
        config: loaded,
        database,
        engine,
        host,
        logger: childLogger(logger, { feature: feature.name }),
        metrics,
        env,
        processorId: engine.processorId,
        extensions,
        agentCertificates: auth.agentCertificates,
        workloadIdentities: auth.workloadIdentities,
      });
      runtimes.push(runtime);
    }

    const context = engineApiContext({
      engine,
      database,
      metrics,
      logger,
      objectTypes: () => machines.map((machine) => machine.objectType),
      featureReadiness: async () => (await Promise.all(runtimes.map((r) => r.readiness?.() ?? []))).flat(),
      version: () => ({
        coreVersion: CORE_VERSION,
        pluginApiVersion: PLUGIN_API_VERSION,
        plugins: host.plugins().map((plugin) => ({ name: plugin.plugin, version: plugin.version })),
        database: database.label,
      }),
    });

    // Calls in flight get the grace the engine gives its handlers: one knob bounds how long stop() waits.
    const shutdownGraceMs = config.engine.shutdownGraceMs ?? DEFAULT_ENGINE_CONFIG.shutdownGraceMs;
    const rest = await createRestServer(
      context,
      [auth.rest, ...runtimes.flatMap((runtime) => (runtime.rest ? [runtime.rest] : []))],
      { closeGraceMs: shutdownGraceMs, gate: auth.gate, ...(tls ? { tls } : {}) },
    );
    cleanups.push(() => rest.close());
    await rest.listen({ host: http.host, port: http.port }).catch((error: unknown) => {
      throw listenFailure(restListener, error);
    });
    const restAddress = rest.server.address();
    const httpBound =
      typeof restAddress === "object" && restAddress ? { host: http.host, port: restAddress.port } : http;
    if (!config.auth?.publicUrl) {
      auth.workloadIdentities.announce(`${tls ? "https" : "http"}://${formatListenAddress(httpBound)}`);
    }

    const grpcModules = runtimes.flatMap((runtime) => runtime.grpc ?? []);
    const grpcApi = createGrpcServer(context, grpcModules, auth.gate);
    const grpcPort = await new Promise<number>((done, fail) =>
      grpcApi.server.bindAsync(
        formatListenAddress(grpc),
        tls
          ? ServerCredentials.createSsl(
              tls.clientCa ?? null,
              [{ cert_chain: tls.cert, private_key: tls.key }],
              !!tls.clientCa,
            )
          : ServerCredentials.createInsecure(),
        (error, port) => (error ? fail(listenFailure(grpcListener, error)) : done(port)),
      ),
    );
    cleanups.push(() => shutdownGrpcServer(grpcApi.server, shutdownGraceMs));
    const grpcBound = { host: grpc.host, port: grpcPort };

    // The agent listener: the agents' services over mTLS, each agent known by its machine certificate.
    const agentModules = grpcModules.filter((module) => module.agentFacing);
    const agentApi = createGrpcServer(context, agentModules, auth.gate, {
      agentListener: true,
      idleCloseMs: config.server.agentIdleCloseMs ?? DEFAULT_CONFIG.server.agentIdleCloseMs,
    });
    const agentCredentials = await agentListenerCredentials(auth.agentCa, agentGrpc.host);
    const agentPort = await new Promise<number>((done, fail) =>
      agentApi.server.bindAsync(formatListenAddress(agentGrpc), agentCredentials, (error, port) =>
        error ? fail(listenFailure(agentListener, error)) : done(port),
      ),
    );
    cleanups.push(() => shutdownGrpcServer(agentApi.server, shutdownGraceMs));
    const agentBound = { host: agentGrpc.host, port: agentPort };
    auth.agentCertificates.announce(config.auth?.agentAddress ?? advertisedAddress(agentBound));

    await engine.start();
    cleanups.push(() => engine.stop());
    // Cleanups run in reverse: features' background work stops before the engine, servers and database.
    for (const runtime of runtimes) {
      await runtime.start?.();
      if (runtime.stop) cleanups.push(runtime.stop);
    }
    for (const name of ["", RACKSMITH_SERVICE, ...grpcModules.map((module) => module.serviceName)]) {
      grpcApi.health.setStatus(name, "SERVING");
    }
    for (const name of ["", ...agentModules.map((module) => module.serviceName)]) {
      agentApi.health.setStatus(name, "SERVING");
    }
    logger.info(
      {
        http: `${tls ? "https" : "http"}://${formatListenAddress(httpBound)}`,
        grpc: formatListenAddress(grpcBound),
        agentGrpc: formatListenAddress(agentBound),
        database: database.description,
        ...(auth.adminTokenFile ? { adminTokenFile: auth.adminTokenFile } : {}),
      },
      "racksmith listening",
    );

    let stopping: Promise<void> | undefined;
    return {
      http: httpBound,
      grpc: grpcBound,
      database,
      engine,
      host,
      metrics,
      logger,
      adminToken: auth.adminToken,
      adminTokenFile: auth.adminTokenFile,
      agentGrpc: agentBound,
      stop: () => {
        stopping ??= (async () => {
          grpcApi.health.setStatus("", "NOT_SERVING");
          agentApi.health.setStatus("", "NOT_SERVING");
          grpcApi.health.setStatus(RACKSMITH_SERVICE, "NOT_SERVING");
          logger.info({}, "racksmith stopping");
          await cleanup();
          logger.info({}, "racksmith stopped");
        })();
        return stopping;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * Without an `auth` section the service answers only this machine: a listener beyond loopback is refused,
 * naming the key, before anything starts.
 */
function assertAuthForRemoteListeners(
  loaded: LoadedConfig,
  listeners: ReadonlyArray<{ address: ListenAddress; key: string }>,
): void {
  if (loaded.config.auth) return;
  for (const { address, key } of listeners) {
    if (isLoopbackHost(address.host)) continue;
    throw new ConfigError(loaded.file ?? "config", [
      `auth: listening on ${formatListenAddress(address)} (${key}) reaches beyond this machine, which needs authentication configured: add an auth section (auth.oidc for an identity provider; auth: {} for tokens this service issues, racksmith token create)`,
    ]);
  }
}

/** Where agents are told to find the agent listener: its address, or this machine's name for a wildcard one. */
function advertisedAddress(address: ListenAddress): string {
  const wildcard = address.host === "0.0.0.0" || address.host === "::" || address.host === "";
  return formatListenAddress(wildcard ? { host: hostname(), port: address.port } : address);
}

/** `server.tls` read from its files (relative to the config file); a file that cannot be read names its key. */
async function readServerTls(loaded: LoadedConfig): Promise<RestTls | undefined> {
  const tls = loaded.config.server.tls;
  if (!tls) return undefined;
  const read = async (key: string, file: string) =>
    readFile(resolve(loaded.baseDir, file)).catch((error: unknown) => {
      throw new ConfigError(loaded.file ?? "config", [
        `server.tls.${key}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      ]);
    });
  return {
    cert: await read("certFile", tls.certFile),
    key: await read("keyFile", tls.keyFile),
    ...(tls.clientCaFile ? { clientCa: await read("clientCaFile", tls.clientCaFile) } : {}),
  };
}
