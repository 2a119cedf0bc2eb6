import type { SchemaObject } from "ajv";

/**
 * JSON Schema of `racksmith.yaml`. Unknown keys are errors everywhere so a typo never silently falls back to
 * a default. Later features add their sections here.
 */
export const configSchema: SchemaObject = {
  $id: "https://racksmith.dev/schemas/config.json",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    plugins: {
      description: "Plugin packages or file paths to load, in order. Nothing else is loaded.",
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
    },
    drivers: {
      description:
        "Settings per BMC driver, keyed by driver name; each driver's schema checks its own section.",
      type: "object",
      additionalProperties: { type: "object" },
      default: {},
    },
  },
};

export interface RacksmithConfig {
  plugins: string[];
  drivers: Record<string, Record<string, unknown>>;
}

export const DEFAULT_CONFIG: RacksmithConfig = { plugins: [], drivers: {} };
