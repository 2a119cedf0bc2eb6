import type { SchemaObject } from "ajv";

/** The `siteExplorer` config section; every key documented with a default. */
export const SITE_EXPLORER_CONFIG_SCHEMA: SchemaObject = {
  description: "How BMCs are explored, paired and ingested.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {},
};

export type SiteExplorerConfig = Record<string, never>;
