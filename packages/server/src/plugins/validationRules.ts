import type { HostTestRules, SkuRules } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Checks the SKU rules a plugin registers; throws InvalidArgumentError listing every problem. */
export function checkSkuRules(rules: SkuRules): SkuRules {
  return checkRules("SKU rules", rules, ["parse", "generate", "verify"], []);
}

/** Checks the host test rules a plugin registers, built-in tests included (each parsed by the rules). */
export function checkHostTestRules(rules: HostTestRules): HostTestRules {
  const problems: string[] = [];
  if (!Array.isArray(rules.builtInTests)) problems.push("builtInTests must be a list");
  else if (typeof rules.parseTest === "function") {
    for (const test of rules.builtInTests) {
      try {
        const { version: _version, verified: _verified, ...fields } = test;
        rules.parseTest(fields);
      } catch (error) {
        problems.push(`built-in test ${JSON.stringify(test?.id)}: ${(error as Error).message}`);
      }
    }
  }
  return checkRules("host test rules", rules, ["parseTest", "select", "judge"], problems);
}

function checkRules<T extends { readonly name: string }>(
  kind: string,
  rules: T,
  methods: ReadonlyArray<keyof T & string>,
  problems: string[],
): T {
  if (!NAME.test(rules.name ?? "")) problems.unshift(`name ${JSON.stringify(rules.name)} must be kebab-case`);
  for (const method of methods) {
    if (typeof rules[method] !== "function") problems.push(`${method} must be a function`);
  }
  if (problems.length)
    throw new InvalidArgumentError(`${kind} ${JSON.stringify(rules.name)}: ${problems.join("; ")}`);
  return rules;
}
