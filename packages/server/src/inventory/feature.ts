import type { ServiceFeature } from "../service/feature.js";
import { inventoryGrpcService, inventoryRestRoutes } from "./api/index.js";
import { inventoryConfigProblems } from "./configSchema.js";
import { openInventory } from "./openInventory.js";

/** Expected machines, DHCP discoveries and BMC credentials (issue 5). */
export const inventoryFeature: ServiceFeature = {
  name: "inventory",
  validateConfig: ({ config }) => inventoryConfigProblems(config.config.inventory),
  async setup(context) {
    const inventory = await openInventory(context);
    return {
      rest: inventoryRestRoutes(inventory),
      grpc: [inventoryGrpcService(inventory, context.logger)],
      readiness: async () => [{ name: "credentials", ...(await inventory.credentialStatus()) }],
    };
  },
};
