import { InvalidArgumentError } from "@racksmith/core";
import { Ajv, type SchemaObject } from "ajv";
// Not config/index.ts: it loads config/schema.ts, which loads this file.
import { sectionSchemaProblems } from "../config/sectionProblems.js";

/** The `skuValidation` config section as written; `resolveSkuValidationConfig` applies the defaults. */
export interface SkuValidationConfig {
  enabled?: boolean;
  ignoreUnassignedMachines?: boolean;
  autoGenerateMissing?: boolean;
}

export type ResolvedSkuValidationConfig = Required<SkuValidationConfig>;

/** Loading a plugin with SKU rules is the opt-in, so it runs by default; the rest are NICo's defaults. */
export const DEFAULT_SKU_VALIDATION_CONFIG: Readonly<ResolvedSkuValidationConfig> = Object.freeze({
  enabled: true,
  ignoreUnassignedMachines: false,
  autoGenerateMissing: false,
});

const D = DEFAULT_SKU_VALIDATION_CONFIG;

/** The `skuValidation` section (NICo's `bom_validation`); every key documented with its default. */
export const SKU_VALIDATION_CONFIG_SCHEMA: SchemaObject = {
  description:
    "SKU (bill of materials) validation, run when a loaded plugin registers SKU rules (e.g. @racksmith/validation-sku): hosts go through the lifecycle's bomValidating state after discovery and after cleanup.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    enabled: {
      type: "boolean",
      description: `Run BOM validation in the lifecycle (the SKU API works either way). Default ${D.enabled}.`,
    },
    ignoreUnassignedMachines: {
      type: "boolean",
      description: `A host without a SKU (none assigned, none named by its expected machine, none matching) goes on as if it passed, instead of waiting for one. Default ${D.ignoreUnassignedMachines}.`,
    },
    autoGenerateMissing: {
      type: "boolean",
      description: `When a host's expected machine names a SKU that does not exist, create it from that host's inventory instead of waiting in skuMissing. Default ${D.autoGenerateMissing}.`,
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<SkuValidationConfig>(
  SKU_VALIDATION_CONFIG_SCHEMA,
);

/** Every problem of the `skuValidation` section, each naming its key; empty when it resolves. */
export function skuValidationConfigProblems(config: SkuValidationConfig = {}): string[] {
  return validate(config) ? [] : sectionSchemaProblems("skuValidation", validate.errors);
}

export function resolveSkuValidationConfig(config: SkuValidationConfig = {}): ResolvedSkuValidationConfig {
  const problems = skuValidationConfigProblems(config);
  if (problems.length > 0) {
    throw new InvalidArgumentError(`invalid skuValidation config: ${problems.join("; ")}`);
  }
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return { ...D, ...defined };
}
