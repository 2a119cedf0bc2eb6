/**
 * Export conditions tried, in order. `RACKSMITH_PLUGIN_CONDITIONS` (comma-separated) goes first: the
 * monorepo's tests set it to `@racksmith/source` so workspace plugins load from source without a build.
 */
function exportConditions(): string[] {
  const extra = (process.env.RACKSMITH_PLUGIN_CONDITIONS ?? "")
    .split(",")
    .map((condition) => condition.trim())
    .filter(Boolean);
  return [...extra, "import", "node", "default"];
}

/** The target of one export path (`.` or `./testing`) for an ESM import, nested conditions or not. */
export function exportTarget(exports: unknown, subpath = "."): string | undefined {
  if (typeof exports === "string") return subpath === "." ? exports : undefined;
  if (!exports || typeof exports !== "object") return undefined;
  const record = exports as Record<string, unknown>;
  const hasPaths = Object.keys(record).some((key) => key.startsWith("."));
  const entry = hasPaths ? record[subpath] : subpath === "." ? record : undefined;
  return conditionalTarget(entry, exportConditions());
}

function conditionalTarget(entry: unknown, conditions: readonly string[]): string | undefined {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return undefined;
  for (const condition of conditions) {
    const target = conditionalTarget((entry as Record<string, unknown>)[condition], conditions);
    if (target) return target;
  }
  return undefined;
}
