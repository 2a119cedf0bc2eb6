import type { SkuRules } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Checks the SKU rules a plugin registers; throws InvalidArgumentError listing every problem. */
export function checkSkuRules(rules: SkuRules): SkuRules {
  const problems: string[] = [];
  if (!NAME.test(rules.name ?? "")) problems.push(`name ${JSON.stringify(rules.name)} must be kebab-case`);
  for (const method of ["parse", "generate", "verify"] as const) {
    if (typeof rules[method] !== "function") problems.push(`${method} must be a function`);
  }
  if (problems.length) {
    throw new InvalidArgumentError(`SKU rules ${JSON.stringify(rules.name)}: ${problems.join("; ")}`);
  }
  return rules;
}
