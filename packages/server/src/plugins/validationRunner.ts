import type { ValidationRunContext, ValidationRunner } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const CONTEXTS: readonly ValidationRunContext[] = ["discovery", "cleanup", "onDemand"];

/** Checks a validation runner a plugin registers; throws InvalidArgumentError listing every problem. */
export function checkValidationRunner(runner: ValidationRunner): ValidationRunner {
  const problems: string[] = [];
  if (!NAME.test(runner.name ?? "")) problems.push(`name ${JSON.stringify(runner.name)} must be kebab-case`);
  if (typeof runner.run !== "function") problems.push("run must be a function");
  if (runner.contexts !== undefined) {
    const unknown = Array.isArray(runner.contexts)
      ? runner.contexts.filter((context) => !CONTEXTS.includes(context))
      : ["(not a list)"];
    if (unknown.length)
      problems.push(`unknown contexts ${unknown.join(", ")} (known: ${CONTEXTS.join(", ")})`);
  }
  if (problems.length) {
    throw new InvalidArgumentError(
      `validation runner ${JSON.stringify(runner.name)}: ${problems.join("; ")}`,
    );
  }
  return runner;
}
