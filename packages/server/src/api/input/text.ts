import { InvalidArgumentError } from "@racksmith/core";
import { childPath } from "./fieldPath.js";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL could not store `value` as text (NUL byte, lone surrogate), or undefined when it can. */
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * `value` with each lone surrogate replaced by U+FFFD: text that can be encoded (as UTF-8, or with `encodeURI`
 * as grpc-js does for a status message, which throws on a lone surrogate).
 */
export function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATES, "\uFFFD");
}

export function textProblem(value: string): string | undefined {
  if (value.includes("\u0000")) return "contains a NUL byte";
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) {
    const unit = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    return `contains a lone UTF-16 surrogate (U+${unit}) at index ${surrogate.index}`;
  }
  return undefined;
}

/** How deep a request's objects and arrays may nest: no request of ours needs more, and a walk stays bounded. */
export const MAX_NESTING_DEPTH = 32;

/**
 * The first string in `value` (walked through objects and arrays, keys too) that text columns cannot hold,
 * or the first value nested deeper than `MAX_NESTING_DEPTH`. Iterative: a hostile body nested 100,000 deep
 * cannot overflow the stack.
 */
export function findBadText(value: unknown, path: string): { field: string; problem: string } | undefined {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: item, path: at, depth } = next;
    if (typeof item === "string") {
      const problem = textProblem(item);
      if (problem) return { field: at, problem };
      continue;
    }
    if (!item || typeof item !== "object" || Buffer.isBuffer(item)) continue;
    if (depth >= MAX_NESTING_DEPTH) {
      return { field: at, problem: `is nested deeper than ${MAX_NESTING_DEPTH} levels` };
    }
    const children: Array<{ value: unknown; path: string; depth: number }> = [];
    if (Array.isArray(item)) {
      for (const [index, child] of item.entries())
        children.push({ value: child, path: childPath(at, index), depth: depth + 1 });
    } else {
      for (const [key, child] of Object.entries(item)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return { field: childPath(at, key), problem: `has a key that ${keyProblem}` };
        children.push({ value: child, path: childPath(at, key), depth: depth + 1 });
      }
    }
    // Reversed onto the stack, so the walk reports the first bad value in document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as (typeof children)[number]);
  }
  return undefined;
}

/** Throws `invalid_argument` naming the field when a string in `value` cannot be stored as text. */
export function assertStorableText(value: unknown, path: string): void {
  const bad = findBadText(value, path);
  if (bad) {
    throw new InvalidArgumentError(`${bad.field} ${bad.problem}`, { details: { field: bad.field } });
  }
}
