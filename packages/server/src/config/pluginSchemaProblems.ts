import { formatSchemaErrors } from "@racksmith/core";
import { Ajv, type SchemaObject, type ValidateFunction } from "ajv";
import { allowedKeysAt } from "./allowedKeys.js";

// One Ajv per schema: two plugins (or two loads of one) may declare the same `$id`, which one Ajv refuses.
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks a config section a plugin describes (a fabric's `configSchema`) against that schema; every problem
 * names its full key (`fabrics.infiniband.pkeyRanges[0]: missing required key end`). `coreKeys` are the
 * section's keys the core reads itself, listed with the schema's own when a key is unknown. The section is
 * not changed (defaults are applied to a copy).
 */
export function pluginSchemaProblems(
  schema: Readonly<Record<string, unknown>>,
  section: Readonly<Record<string, unknown>>,
  where: {
    /** The section's key: `fabrics.infiniband`. */
    prefix: string;
    /** Who declares the schema, named if it cannot be compiled: `the ufm InfiniBand fabric`. */
    owner: string;
    coreKeys?: readonly string[];
  },
): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true }).compile(
        schema as SchemaObject,
      );
    } catch (error) {
      return [
        `${where.prefix}: the config schema of ${where.owner} is not valid JSON Schema (${(error as Error).message})`,
      ];
    }
    compiled.set(schema, validate);
  }
  if (validate(structuredClone(section))) return [];
  return formatSchemaErrors(
    validate.errors ?? [],
    (path) => [...(path ? [] : (where.coreKeys ?? [])), ...allowedKeysAt(schema as SchemaObject, path)],
    { prefix: where.prefix },
  );
}
