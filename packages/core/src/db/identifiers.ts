import { InvalidArgumentError } from "../errors/index.js";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new InvalidArgumentError(
      `database schema "${schema}" is not a plain identifier (lower-case letters, digits and _, at most 63)`,
    );
  }
}

/**
 * The NOTIFY channel for a topic. Channels are database-wide, so the schema is part of the name: replicas
 * (and test files) using different schemas of one database do not wake each other.
 */
export function channelName(topic: string, schema: string | undefined): string {
  return (schema ? `racksmith_${topic}_${schema}` : `racksmith_${topic}`).slice(0, 63);
}
