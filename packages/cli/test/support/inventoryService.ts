import { silentLogger } from "@racksmith/core";
import { DEFAULT_CONFIG, inventoryFeature, type RunningService, startService } from "@racksmith/server";

/** The service with only the inventory (expected machines, DHCP, credentials) on free ports, in memory. */
export function startInventoryService(baseDir: string): Promise<RunningService> {
  return startService({
    config: {
      config: { ...structuredClone(DEFAULT_CONFIG), server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" } },
      file: undefined,
      baseDir,
    },
    features: [inventoryFeature],
    inMemoryDatabase: true,
    logger: silentLogger,
  });
}
