import { InvalidArgumentError } from "@racksmith/core";
import { pluginSchemaProblems } from "../../config/index.js";
import { type FabricSectionName, selectFabricDefinition } from "./selectDefinition.js";

/** A registered fabric definition as far as its section's check needs it. */
interface CheckedDefinition {
  name: string;
  configSchema?: Readonly<Record<string, unknown>>;
}

/**
 * What can be checked of a `fabrics.<key>` section once the plugins are loaded and before anything is
 * created: that one loaded plugin registers the fabric it names, and the plugin's keys (the section without
 * `coreKeys`) against that fabric's `configSchema`. Each problem names its key.
 */
export function fabricSectionProblems(
  name: FabricSectionName,
  section: Readonly<Record<string, unknown>>,
  coreKeys: readonly string[],
  registered: readonly CheckedDefinition[],
): string[] {
  const { fabric } = section;
  // A `fabric` that is not a name selects nothing; the feature's own check words that problem.
  if (fabric !== undefined && (typeof fabric !== "string" || fabric === "")) return [];
  let definition: CheckedDefinition;
  try {
    definition = selectFabricDefinition(name, registered, fabric);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return [error.message];
    throw error;
  }
  if (!definition.configSchema) return [];
  const pluginConfig = Object.fromEntries(Object.entries(section).filter(([key]) => !coreKeys.includes(key)));
  return pluginSchemaProblems(definition.configSchema, pluginConfig, {
    prefix: `fabrics.${name.key}`,
    owner: `the ${definition.name} ${name.label} fabric`,
    coreKeys,
  });
}
