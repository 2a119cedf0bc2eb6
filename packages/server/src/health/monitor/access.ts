import type { Logger } from "@racksmith/core";
import { redfishStandardDriver } from "@racksmith/core";
import type { LoadedConfig } from "../../config/index.js";
import type { Database } from "../../db/index.js";
import { createBmcConnector, readBmcCaFile, resolveSiteExplorerConfig } from "../../explorer/index.js";
import { openInventory } from "../../inventory/index.js";
import { type BmcAccess, createBmcAccess, type ServiceProbeCache } from "../../lifecycle/bmc/index.js";
import type { PluginHost } from "../../plugins/index.js";

/**
 * BMC access as the service's monitor has it (the lifecycle feature builds the same): the site credential
 * store, the `siteExplorer` connection settings (scheme, TLS, proxy, per-BMC cap) and the drivers the explorer
 * chose; connections close with each BMC's poll.
 */
export async function openMonitorBmcAccess(options: {
  config: LoadedConfig;
  database: Database;
  host: PluginHost;
  logger: Logger;
  /** Keep each BMC's service description between passes (hand the same cache to the monitor). */
  serviceProbes?: ServiceProbeCache;
}): Promise<BmcAccess> {
  const { config, database, host, logger, serviceProbes } = options;
  const explorerConfig = resolveSiteExplorerConfig(config.config.siteExplorer);
  const inventory = await openInventory({ config, database, logger });
  return createBmcAccess({
    database: database.db,
    connector: createBmcConnector(explorerConfig, {
      ca: readBmcCaFile(explorerConfig.bmc.caFile, config.baseDir),
      logger,
    }),
    credentials: inventory.credentials,
    drivers: () => host.bmcDriverDefinitions(),
    fallback: redfishStandardDriver,
    driverSettings: (definition) => host.driverSettings(definition.name),
    logger,
    ...(serviceProbes ? { probes: serviceProbes } : {}),
    // Back a minute later: nothing is kept open between passes.
    keepConnections: false,
  });
}
