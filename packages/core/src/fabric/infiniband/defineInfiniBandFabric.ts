import { InvalidArgumentError } from "../../errors/index.js";
import type { InfiniBandFabricDefinition } from "./fabric.js";

const NAME = /^[a-z][a-z0-9-]*$/;

/** Checks a fabric definition at registration so a bad plugin fails early with a precise message. */
export function defineInfiniBandFabric<T extends InfiniBandFabricDefinition>(definition: T): T {
  const problems: string[] = [];
  if (!NAME.test(definition.name ?? ""))
    problems.push(`name ${JSON.stringify(definition.name)} must be kebab-case`);
  if (definition.name === "disabled") problems.push(`name "disabled" is reserved for the built-in fabric`);
  if (typeof definition.create !== "function") problems.push("create must be a function");
  if (definition.configSchema !== undefined && typeof definition.configSchema !== "object")
    problems.push("configSchema must be a JSON Schema object");
  if (problems.length) {
    throw new InvalidArgumentError(
      `InfiniBand fabric ${JSON.stringify(definition.name)}: ${problems.join("; ")}`,
    );
  }
  return definition;
}
