import { readFile } from "node:fs/promises";
import { InvalidFaultRuleError } from "./errors.js";
import { compileGlob, matchesGlob } from "./globPattern.js";
import { isJsonObject } from "./json.js";
import { normalizePath } from "./resourcePath.js";

/**
 * A fault to inject, checked before authentication. `path` is an exact request path or a glob (`*` within a
 * segment, `**` across segments). At most one of `status`, `reset` and `malformed`; `latencyMs` may come with
 * any of them or alone.
 */
export interface FaultRule {
  readonly path: string;
  /** Only this HTTP method (any when absent). */
  readonly method?: string;
  /** Delay before answering (or before the other fault). */
  readonly latencyMs?: number;
  /** Answer this HTTP status with a Redfish error body. */
  readonly status?: number;
  /** Apply this many times, then stop (unlimited when absent). */
  readonly count?: number;
  /** Destroy the connection without answering. */
  readonly reset?: boolean;
  /** Answer 200 with a truncated JSON body. */
  readonly malformed?: boolean;
}

/** What to do to one request. */
export interface FaultDecision {
  readonly rule: FaultRule;
  readonly latencyMs: number;
  readonly outcome:
    | { kind: "status"; status: number }
    | { kind: "reset" }
    | { kind: "malformed" }
    | undefined;
}

const RULE_FIELDS = new Set(["path", "method", "latencyMs", "status", "count", "reset", "malformed"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"]);

/** Checks one rule; the error names the field (`faults[2].latencyMs`). */
export function validateFaultRule(value: unknown, where = "fault", file?: string): FaultRule {
  const fail = (field: string, problem: string): never => {
    throw new InvalidFaultRuleError(field ? `${where}.${field}` : where, problem, file);
  };
  if (!isJsonObject(value)) return fail("", "must be an object");
  for (const field of Object.keys(value)) {
    if (!RULE_FIELDS.has(field))
      fail(field, `is not a known field (expected one of ${[...RULE_FIELDS].join(", ")})`);
  }
  const { path, method, latencyMs, status, count, reset, malformed } = value;
  if (typeof path !== "string" || !path.startsWith("/")) fail("path", "must be a path starting with /");
  if (method !== undefined && (typeof method !== "string" || !METHODS.has(method.toUpperCase()))) {
    fail("method", `must be one of ${[...METHODS].join(", ")}`);
  }
  if (
    latencyMs !== undefined &&
    !(typeof latencyMs === "number" && Number.isFinite(latencyMs) && latencyMs >= 0)
  ) {
    fail("latencyMs", "must be a non-negative number of milliseconds");
  }
  if (
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)
  ) {
    fail("status", "must be an HTTP status between 100 and 599");
  }
  if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1)) {
    fail("count", "must be a positive integer");
  }
  if (reset !== undefined && typeof reset !== "boolean") fail("reset", "must be true or false");
  if (malformed !== undefined && typeof malformed !== "boolean") fail("malformed", "must be true or false");
  const outcomes = [status !== undefined, reset === true, malformed === true].filter(Boolean).length;
  if (outcomes > 1) fail("", "may set only one of status, reset and malformed");
  if (outcomes === 0 && latencyMs === undefined)
    fail("", "does nothing: set latencyMs, status, reset or malformed");
  return value as unknown as FaultRule;
}

/** Checks a list of rules (a JSON array, or an object with a `faults` array). */
export function parseFaultRules(value: unknown, file?: string): FaultRule[] {
  const list = isJsonObject(value) ? value.faults : value;
  if (!Array.isArray(list)) {
    throw new InvalidFaultRuleError("faults", 'must be an array of fault rules (or {"faults": [...]})', file);
  }
  return list.map((rule, index) => validateFaultRule(rule, `faults[${index}]`, file));
}

/** Reads and validates a fault file. */
export async function loadFaults(file: string): Promise<FaultRule[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidFaultRuleError("file", `cannot be read: ${(error as Error).message}`, file);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidFaultRuleError("file", `is not valid JSON: ${(error as Error).message}`, file);
  }
  return parseFaultRules(parsed, file);
}

interface ActiveFault {
  readonly rule: FaultRule;
  readonly pattern: RegExp;
  remaining: number;
}

/**
 * The faults of one virtual BMC. The first rule (in the order added) that matches a request and has uses left
 * decides; each use counts down its `count`.
 */
export class FaultInjector {
  private active: ActiveFault[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  add(rule: FaultRule): void {
    const valid = validateFaultRule(rule);
    this.active.push({
      rule: valid,
      pattern: compileGlob(normalizePath(valid.path)),
      remaining: valid.count ?? Number.POSITIVE_INFINITY,
    });
  }

  clear(): void {
    this.active = [];
  }

  /** Rules with uses left. */
  get rules(): FaultRule[] {
    return this.active.filter((fault) => fault.remaining > 0).map((fault) => fault.rule);
  }

  /** The fault for this request, counting one use; undefined when none applies. */
  take(method: string, requestPath: string): FaultDecision | undefined {
    const path = normalizePath(requestPath);
    const verb = method.toUpperCase();
    for (const fault of this.active) {
      if (fault.remaining <= 0) continue;
      if (fault.rule.method !== undefined && fault.rule.method.toUpperCase() !== verb) continue;
      if (!matchesGlob(fault.pattern, path)) continue;
      fault.remaining--;
      const { rule } = fault;
      const outcome =
        rule.reset === true
          ? ({ kind: "reset" } as const)
          : rule.malformed === true
            ? ({ kind: "malformed" } as const)
            : rule.status !== undefined
              ? ({ kind: "status", status: rule.status } as const)
              : undefined;
      return { rule, latencyMs: rule.latencyMs ?? 0, outcome };
    }
    return undefined;
  }
}
