import { InvalidArgumentError } from "@racksmith/core";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new InvalidArgumentError(
      `database schema "${schema}" is not a plain identifier (lower-case letters, digits and _, at most 63)`,
    );
  }
}
