import type { ValidationRunner } from "@racksmith/core";
import { InvalidArgumentError, redfishStandardDriver } from "@racksmith/core";
import {
  createBmcConnector,
  readBmcCaFile,
  resolveSiteExplorerConfig,
  siteExplorerConfigProblems,
} from "../explorer/index.js";
import { HealthCollectors } from "../health/collectors/index.js";
import { BmcMonitor, monitorConfigProblems, resolveMonitorConfig } from "../health/monitor/index.js";
import {
  HealthService,
  HOST_HEALTH,
  healthConfigProblems,
  healthGrpcServices,
  healthRestRoutes,
} from "../health/service/index.js";
import { inventoryConfigProblems, openInventory } from "../inventory/index.js";
import type { PluginHost } from "../plugins/index.js";
import type { ConfigCheckContext, FeatureContext, ServiceFeature } from "../service/feature.js";
import { agentGrpcServices } from "./agents/index.js";
import { lifecycleGrpcServices, lifecycleRestRoutes } from "./api/index.js";
import { type BmcAccessOptions, createBmcAccess, ServiceProbeCache } from "./bmc/index.js";
import { BOM_VALIDATION } from "./bom/index.js";
import { lifecycleConfigProblems, type ResolvedLifecycleConfig, resolveLifecycleConfig } from "./config.js";
import { INSTANCE_FABRICS } from "./fabrics/index.js";
import { HOST_TEST_RUNS } from "./hostTests/index.js";
import { InstanceService, instancesGrpcServices, instancesRestRoutes } from "./instances/index.js";
import { managedHostLifecycle } from "./machine/managedHostMachine.js";
import type { ForceDeletionHook } from "./machine/step.js";
import { createRebootGovernance, type RebootGovernance } from "./reboot/governance.js";

export interface LifecycleFeatureOptions {
  /** Run before a force-deleted host's records go (fabric plugins detach its ports). */
  forceDeletionHooks?: readonly ForceDeletionHook[];
}

/**
 * The managed-host lifecycle: its state machine on the engine, the agent API, instances, health (service and
 * BMC monitor) and the admin API.
 * The state machine is built in `machines` (the engine needs it before setup), its I/O bound in `setup`.
 */
export function createLifecycleFeature(options: LifecycleFeatureOptions = {}): ServiceFeature {
  let bound: Parameters<typeof managedHostLifecycle>[0] | undefined;
  let governance: RebootGovernance | undefined;
  const unbound = (): never => {
    throw new Error("the lifecycle feature was not set up");
  };
  return {
    name: "lifecycle",
    validateConfig: lifecycleConfigCheck,
    machines: (loaded) => {
      const config = resolveLifecycleConfig(loaded.config.lifecycle);
      governance = createRebootGovernance(config);
      // The engine calls these only once the service started, after `setup` bound them.
      return [
        managedHostLifecycle({
          config,
          reboots: governance.governor,
          validationRunners: () => (bound ?? unbound()).validationRunners(),
          forceDeletionHooks: options.forceDeletionHooks ?? [],
          clock: () => new Date(),
          bmcAccess: (signal) => (bound ?? unbound()).bmcAccess(signal),
          hostHealth: (hostId) => (bound?.hostHealth ?? unbound)(hostId),
          instanceFabrics: () => bound?.instanceFabrics?.() ?? [],
          bomValidation: () => bound?.bomValidation?.(),
          hostTestRuns: () => bound?.hostTestRuns?.(),
        }),
      ];
    },
    async setup(context) {
      const config = resolveLifecycleConfig(context.config.config.lifecycle);
      const runners = configuredRunners(context, config);
      const explorerConfig = resolveSiteExplorerConfig(context.config.config.siteExplorer);
      const inventory = await openInventory(context);
      const { database, engine, logger } = context;
      const health = new HealthService({
        database,
        engine,
        logger,
        config: context.config.config.health,
        metrics: context.metrics,
      });
      context.extensions.add(HOST_HEALTH, health);
      // Each BMC's service description, kept between the monitor's polls and the lifecycle's handler runs.
      const serviceProbes = new ServiceProbeCache();
      const bmcAccessOptions: BmcAccessOptions = {
        database: context.database.db,
        connector: createBmcConnector(explorerConfig, {
          ca: readBmcCaFile(explorerConfig.bmc.caFile, context.config.baseDir),
          logger: context.logger,
        }),
        credentials: inventory.credentials,
        drivers: () => context.host.bmcDriverDefinitions(),
        fallback: redfishStandardDriver,
        driverSettings: (definition) => context.host.driverSettings(definition.name),
        logger: context.logger,
        probes: serviceProbes,
      };
      bound = {
        config,
        validationRunners: () => runners,
        forceDeletionHooks: options.forceDeletionHooks ?? [],
        clock: () => new Date(),
        bmcAccess: createBmcAccess(bmcAccessOptions),
        hostHealth: (hostId) => health.aggregate(hostId),
        instanceFabrics: () => context.extensions.list(INSTANCE_FABRICS),
        bomValidation: () => context.extensions.list(BOM_VALIDATION)[0],
        hostTestRuns: () => context.extensions.list(HOST_TEST_RUNS)[0],
      };
      const instances = new InstanceService({
        database,
        engine,
        logger,
        allocationBlockers: (hostId) => health.allocationBlockers(hostId),
        hostAlerts: async (hostId) => (await health.aggregate(hostId)).alerts,
        fabrics: () => context.extensions.list(INSTANCE_FABRICS),
      });
      const monitorConfig = resolveMonitorConfig(context.config.config.monitor, context.config.baseDir);
      const probes = () => context.host.healthProbes().map((probe) => probe.definition);
      const probeSettings = (name: string) => context.host.probeSettings(name);
      const monitor = new BmcMonitor({
        database: database.db,
        bmcAccess: createBmcAccess({ ...bmcAccessOptions, keepConnections: false }),
        serviceProbes,
        recordReport: (machineId, report) => health.recordReport(machineId, report),
        registry: context.metrics,
        logger,
        config: monitorConfig,
        probes,
        probeSettings,
      });
      // The plugins' collecting probes run beside the monitor (and, like it, in one replica).
      const collectors = new HealthCollectors({
        database: database.db,
        probes,
        recordReport: (machineId, report) => health.recordReport(machineId, report),
        probeSettings,
        logger,
      });
      // Built with the state machine in `machines`, which the service always calls before `setup`.
      const reboots = governance ?? unbound();
      await reboots.bind(database.db, context.metrics);
      const adminDeps = { database, engine, logger };
      return {
        rest: (app) => {
          instancesRestRoutes(instances)(app);
          healthRestRoutes(health)(app);
          lifecycleRestRoutes(adminDeps)(app);
        },
        grpc: [
          ...agentGrpcServices({
            database,
            engine,
            logger,
            hostAgentValidation: config.hostAgentValidation,
            hostTestRuns: () => context.extensions.list(HOST_TEST_RUNS)[0],
            agentCertificates: context.agentCertificates,
            workloadIdentities: context.workloadIdentities,
          }),
          ...instancesGrpcServices(instances, logger),
          ...healthGrpcServices(health, logger),
          ...lifecycleGrpcServices(adminDeps),
        ],
        readiness: async () => [reboots.readiness()],
        start: async () => {
          reboots.start();
          if (monitorConfig.enabled) {
            monitor.start();
            collectors.start();
          }
        },
        stop: async () => {
          reboots.stop();
          await Promise.all([monitor.stop(), collectors.stop()]);
        },
      };
    },
  };
}

/** The lifecycle as `racksmith serve` runs it. */
export const lifecycleFeature: ServiceFeature = createLifecycleFeature();

/**
 * The sections the lifecycle reads (its own, the monitor's and health's, the explorer's BMC settings its BMC
 * access dials with, the inventory it opens for credentials) and the validation runners it names.
 */
function lifecycleConfigCheck({ config, host }: ConfigCheckContext): string[] {
  const { lifecycle, siteExplorer, monitor, health, inventory } = config.config;
  const own = lifecycleConfigProblems(lifecycle);
  return [
    ...own,
    // Runner names are only read from a section that is otherwise valid.
    ...(own.length ? [] : unregisteredRunnerProblems(lifecycle?.validationRunners ?? [], host)),
    ...siteExplorerConfigProblems(siteExplorer),
    ...monitorConfigProblems(monitor),
    ...healthConfigProblems(health),
    ...inventoryConfigProblems(inventory),
  ];
}

/** One problem per name in `lifecycle.validationRunners` that no loaded plugin registers. */
function unregisteredRunnerProblems(names: readonly string[], host: PluginHost): string[] {
  const known = host.validationRunners().map((r) => r.definition.name);
  return names
    .filter((name) => !known.includes(name))
    .map(
      (name) =>
        `lifecycle.validationRunners: no loaded plugin registers a runner named "${name}" (registered: ${known.length ? known.join(", ") : "none"}); add its plugin to plugins`,
    );
}

/** The runners `lifecycle.validationRunners` names, each registered by a loaded plugin. */
function configuredRunners(context: FeatureContext, config: ResolvedLifecycleConfig): ValidationRunner[] {
  const problems = unregisteredRunnerProblems(config.validationRunners, context.host);
  if (problems.length) throw new InvalidArgumentError(problems.join("; "));
  const registered = context.host.validationRunners().map((r) => r.definition);
  return config.validationRunners.flatMap((name) => registered.filter((r) => r.name === name));
}
