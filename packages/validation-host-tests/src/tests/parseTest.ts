import type { HostTest } from "@racksmith/core";
import { VALIDATION_RUN_CONTEXTS, type ValidationRunContext } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core/errors";

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const FIELDS = [
  "id",
  "name",
  "command",
  "args",
  "timeoutMs",
  "enabled",
  "platforms",
  "skus",
  "contexts",
  "description",
] as const;
const MAX_TEXT = 1024;
const MAX_ITEMS = 64;
/** One second to one day. */
const TIMEOUT_RANGE = [1_000, 86_400_000] as const;

/**
 * A test an operator adds (`validation test add`), every field checked and the error naming the first bad one.
 * `version` and `verified` are the service's to set (a new test is unverified until an operator verifies it).
 */
export function parseTest(value: unknown): HostTest {
  const test = record(value, "the test");
  const unknown = Object.keys(test).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw invalid(unknown, `is not a test field (fields: ${FIELDS.join(", ")})`);
  const id = text(test.id, "id");
  if (!ID.test(id))
    throw invalid("id", "must be 1 to 128 letters, digits, '_', '.' or '-', starting with a letter or digit");
  const [min, max] = TIMEOUT_RANGE;
  const timeoutMs = test.timeoutMs;
  if (typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs < min || timeoutMs > max) {
    throw invalid("timeoutMs", `must be a whole number of milliseconds from ${min} to ${max}`);
  }
  const contexts =
    test.contexts === undefined ? ["discovery", "cleanup", "onDemand"] : texts(test.contexts, "contexts");
  const badContext = contexts.find((c) => !(VALIDATION_RUN_CONTEXTS as readonly string[]).includes(c));
  if (badContext !== undefined) {
    throw invalid(
      "contexts",
      `has ${JSON.stringify(badContext)} (contexts: ${VALIDATION_RUN_CONTEXTS.join(", ")})`,
    );
  }
  return {
    id,
    name: test.name === undefined ? id : text(test.name, "name"),
    command: text(test.command, "command"),
    args: test.args === undefined ? [] : texts(test.args, "args", true),
    timeoutMs,
    version: "v1",
    enabled: test.enabled === undefined ? true : flag(test.enabled, "enabled"),
    verified: false,
    platforms: test.platforms === undefined ? [] : texts(test.platforms, "platforms"),
    skus: test.skus === undefined ? [] : texts(test.skus, "skus"),
    contexts: [...new Set(contexts)] as ValidationRunContext[],
    description: test.description === undefined ? "" : text(test.description, "description", true),
  };
}

type Fields = Record<string, unknown>;

function invalid(field: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(`${field} ${problem}`, { details: { field } });
}

function record(value: unknown, field: string): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(field, "must be an object");
  return value as Fields;
}

function text(value: unknown, field: string, mayBeEmpty = false): string {
  if (typeof value !== "string") throw invalid(field, "must be a string");
  if (!mayBeEmpty && value.trim() === "") throw invalid(field, "must not be empty");
  if (value.length > MAX_TEXT) throw invalid(field, `must be at most ${MAX_TEXT} characters`);
  if (value.includes("\u0000")) throw invalid(field, "must not contain NUL characters");
  return value;
}

function texts(value: unknown, field: string, mayBeEmpty = false): string[] {
  if (!Array.isArray(value)) throw invalid(field, "must be a list of strings");
  if (value.length > MAX_ITEMS) throw invalid(field, `must have at most ${MAX_ITEMS} items`);
  return value.map((item, i) => text(item, `${field}[${i}]`, mayBeEmpty));
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw invalid(field, "must be true or false");
  return value;
}
