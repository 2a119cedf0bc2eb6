import type { ServiceFeature } from "../service/feature.js";

/** Expected machines, DHCP discoveries and BMC credentials (issue 5). */
export const inventoryFeature: ServiceFeature = {
  name: "inventory",
  async setup() {
    return {};
  },
};
