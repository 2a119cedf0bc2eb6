import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { InvalidArgumentError } from "@racksmith/core";
import type { InventoryReader } from "../inventory/contracts.js";
import { inventoryConfigProblems, openInventory } from "../inventory/index.js";
import type { FeatureContext, ServiceFeature } from "../service/feature.js";
import { siteExplorerGrpcServices, siteExplorerRestRoutes } from "./api/index.js";
import { createBmcConnector } from "./bmcConnector.js";
import { resolveSiteExplorerConfig, siteExplorerConfigProblems } from "./configSchema.js";
import { EndpointExplorer } from "./endpointExplorer.js";
import { ExplorationLoop } from "./explorationLoop.js";
import { managedHostMachine } from "./managedHostMachine.js";
import { ExplorerMetrics } from "./metrics.js";
import { SiteExplorer } from "./siteExplorer.js";

export interface SiteExplorerFeatureOptions {
  /** Where the explorer reads expected machines, endpoints and credentials (default: `openInventory`). */
  inventory?: (context: FeatureContext) => Promise<InventoryReader>;
  /** Wait between the inventory announcing new BMC endpoints and the run exploring them (default 5,000 ms). */
  newEndpointDelayMs?: number;
  /**
   * Also run a stand-in managed-host machine that leaves ingested hosts in `created`: for running the explorer
   * without the lifecycle feature (which owns the managed-host machine).
   */
  standaloneLifecycle?: boolean;
}

/** The site explorer feature: exploration loop, pairing, ingestion and its APIs. */
export function createSiteExplorerFeature(options: SiteExplorerFeatureOptions = {}): ServiceFeature {
  return {
    name: "site-explorer",
    validateConfig: ({ config }) => [
      ...siteExplorerConfigProblems(config.config.siteExplorer),
      // It opens the service's inventory (and its DHCP pool) unless it is given another.
      ...(options.inventory ? [] : inventoryConfigProblems(config.config.inventory)),
    ],
    machines: () => (options.standaloneLifecycle ? [managedHostMachine()] : []),
    async setup(context) {
      const config = resolveSiteExplorerConfig(context.config.config.siteExplorer);
      const inventory = await (options.inventory ?? openInventory)(context);
      const connector = createBmcConnector(config, {
        ca: readBmcCaFile(config.bmc.caFile, context.config.baseDir),
        logger: context.logger,
      });
      const explorer = new EndpointExplorer({
        connector,
        credentials: inventory.credentials,
        drivers: () => context.host.bmcDriverDefinitions(),
        driverSettings: (definition) => context.host.driverSettings(definition.name),
        config,
        logger: context.logger,
      });
      const siteExplorer = new SiteExplorer({
        database: context.database,
        inventory,
        explorer,
        engine: context.engine,
        config,
        metrics: new ExplorerMetrics(context.metrics),
        logger: context.logger,
      });
      const loop = new ExplorationLoop({
        database: context.database,
        owner: context.processorId,
        intervalMs: config.intervalMs,
        // An exploration started just before the cutoff may last its whole deadline.
        marginMs: Math.min(config.intervalMs / 2, config.bmc.explorationTimeoutMs),
        newEndpointDelayMs: options.newEndpointDelayMs ?? config.newEndpointDelayMs,
        logger: context.logger,
        run: async (deadline) => {
          const summary = await siteExplorer.runIteration({ deadline });
          context.logger.info({ ...summary }, "site exploration run");
          return { backlog: summary.neverExploredLeft > 0 };
        },
      });
      const requestRun = () => loop.requestRun();
      return {
        rest: siteExplorerRestRoutes(siteExplorer, requestRun),
        grpc: siteExplorerGrpcServices(siteExplorer, requestRun, context.logger),
        start: async () => {
          if (config.enabled) await loop.start();
        },
        stop: () => loop.stop(),
      };
    },
  };
}

/** The site explorer with the service's own inventory. */
export const siteExplorerFeature: ServiceFeature = createSiteExplorerFeature();

/** The PEM bundle `siteExplorer.bmc.caFile` names (relative to the config file), read once at startup. */
export function readBmcCaFile(caFile: string | undefined, baseDir: string): string | undefined {
  if (!caFile) return undefined;
  const path = resolve(baseDir, caFile);
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new InvalidArgumentError(
      `siteExplorer.bmc.caFile: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
