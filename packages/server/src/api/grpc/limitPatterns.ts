import type { MessageShape } from "./messageShapes.js";
import { fieldPattern, itemPattern } from "./requestCheck.js";
import type { MethodLimits } from "./requestLimits.js";

/** Every path a limits table may name for a request message: its strings and its lists and maps. */
export interface LimitPatterns {
  /** Paths `maxLength` may name: string fields, items of repeated strings, and maps (`labels{}`). */
  readonly strings: ReadonlySet<string>;
  /** Paths `maxItems` may name: repeated and map fields. */
  readonly lists: ReadonlySet<string>;
}

/** The paths of `shape`'s fields; a message met again inside itself is not expanded a second time. */
export function limitPatterns(shape: MessageShape): LimitPatterns {
  const strings = new Set<string>();
  const lists = new Set<string>();
  const visit = (message: MessageShape, parent: string, open: ReadonlySet<string>): void => {
    for (const field of message.fields) {
      const pattern = fieldPattern(parent, field.name);
      const items = itemPattern(pattern, field);
      if (field.cardinality !== "one") lists.add(pattern);
      if (field.kind === "string" || field.cardinality === "map") strings.add(items);
      if (field.message && !open.has(field.message.fullName)) {
        visit(field.message, items, new Set([...open, field.message.fullName]));
      }
    }
  };
  visit(shape, "", new Set([shape.fullName]));
  return { strings, lists };
}

/** Why `limits` cannot apply to `shape`'s requests (a path no field has, a limit that is no size), if it cannot. */
export function limitsProblem(shape: MessageShape, limits: MethodLimits): string | undefined {
  const patterns = limitPatterns(shape);
  for (const [path, limit] of Object.entries(limits.maxLength ?? {})) {
    if (!patterns.strings.has(path))
      return `maxLength names ${path}, not a string field of ${shape.fullName}`;
    if (!isSize(limit)) return `maxLength of ${path} is ${limit}, not a positive integer`;
  }
  for (const [path, limit] of Object.entries(limits.maxItems ?? {})) {
    if (!patterns.lists.has(path))
      return `maxItems names ${path}, not a repeated or map field of ${shape.fullName}`;
    if (!isSize(limit)) return `maxItems of ${path} is ${limit}, not a positive integer`;
  }
  if (limits.maxRequestBytes !== undefined && !isSize(limits.maxRequestBytes)) {
    return `maxRequestBytes is ${limits.maxRequestBytes}, not a positive integer`;
  }
  return undefined;
}

function isSize(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
