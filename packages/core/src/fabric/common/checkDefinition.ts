import { InvalidArgumentError } from "../../errors/index.js";

const NAME = /^[a-z][a-z0-9-]*$/;

/** What every fabric definition has, whatever its contract. */
interface FabricDefinitionShape {
  name: string;
  configSchema?: Readonly<Record<string, unknown>>;
  create: unknown;
}

/**
 * Checks a fabric definition at registration so a bad plugin fails early with a precise message; `label`
 * names the contract (`InfiniBand`, `NVLink`).
 */
export function checkFabricDefinition<T extends FabricDefinitionShape>(label: string, definition: T): T {
  const problems: string[] = [];
  if (!NAME.test(definition.name ?? ""))
    problems.push(`name ${JSON.stringify(definition.name)} must be kebab-case`);
  if (definition.name === "disabled") problems.push(`name "disabled" is reserved for the built-in fabric`);
  if (typeof definition.create !== "function") problems.push("create must be a function");
  if (definition.configSchema !== undefined && typeof definition.configSchema !== "object")
    problems.push("configSchema must be a JSON Schema object");
  if (problems.length) {
    throw new InvalidArgumentError(
      `${label} fabric ${JSON.stringify(definition.name)}: ${problems.join("; ")}`,
    );
  }
  return definition;
}
