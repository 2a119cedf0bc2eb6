import type { SchemaObject } from "ajv";

/** The `inventory` config section (credentials store, DHCP underlay pool…); every key documented with a default. */
export const INVENTORY_CONFIG_SCHEMA: SchemaObject = {
  description: "Expected machines, DHCP discoveries and BMC credentials.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {},
};

export type InventoryConfig = Record<string, never>;
