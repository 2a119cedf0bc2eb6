import { InvalidArgumentError } from "../errors/index.js";
import { BMC_CAPABILITIES, type BmcDriverDefinition } from "./bmcDriver.js";

const NAME = /^[a-z][a-z0-9-]*$/;

/** Checks a driver definition at registration so a bad plugin fails early with a precise message. */
export function defineBmcDriver<T extends BmcDriverDefinition>(definition: T): T {
  const problems: string[] = [];
  if (!NAME.test(definition.name ?? ""))
    problems.push(`name ${JSON.stringify(definition.name)} must be kebab-case`);
  if (!definition.vendor) problems.push("vendor is required");
  if (typeof definition.detect !== "function") problems.push("detect must be a function");
  if (definition.refine !== undefined && typeof definition.refine !== "function")
    problems.push("refine must be a function when given");
  if (typeof definition.create !== "function") problems.push("create must be a function");
  const unknown = (definition.capabilities ?? []).filter(
    (c) => !(BMC_CAPABILITIES as readonly string[]).includes(c),
  );
  if (unknown.length)
    problems.push(`unknown capabilities ${unknown.join(", ")} (known: ${BMC_CAPABILITIES.join(", ")})`);
  if (problems.length) {
    throw new InvalidArgumentError(`BMC driver ${JSON.stringify(definition.name)}: ${problems.join("; ")}`);
  }
  return definition;
}
