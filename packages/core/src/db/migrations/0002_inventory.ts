import type { Migration } from "./migration.js";

/** Expected machines, DHCP leases (issue 5). */
export const inventory: Migration = {
  name: "0002_inventory",
  statements: [],
};
