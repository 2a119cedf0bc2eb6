import type { ErrorObject } from "ajv";

/**
 * `/plugins/2` → `plugins[2]`; `/a/b` → `a.b`; root → `(top level)`. With a prefix (the key of the section
 * the schema checks, `fabrics.infiniband`), paths start with it and the root is the prefix itself.
 */
export function keyPath(instancePath: string, prefix = ""): string {
  if (!instancePath) return prefix || "(top level)";
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce(
      (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      prefix,
    );
}

/** How `formatSchemaErrors` names keys and words problems. */
export interface SchemaErrorFormat {
  /** Key of the section the schema checks (`fabrics.infiniband`); every key path starts with it. */
  prefix?: string;
  /** Keywords reported with ajv's own message (`must be integer`) rather than the worded one. */
  ajvMessages?: readonly string[];
}

/** One line per problem, naming the key path, what is wrong and (for typos) what was probably meant. */
export function formatSchemaErrors(
  errors: readonly ErrorObject[],
  allowedKeys: (instancePath: string) => string[],
  format: SchemaErrorFormat = {},
): string[] {
  const { prefix = "", ajvMessages = [] } = format;
  const lines = new Set<string>();
  for (const error of errors) {
    const at = keyPath(error.instancePath, prefix);
    switch (ajvMessages.includes(error.keyword) ? "" : error.keyword) {
      case "additionalProperties": {
        const key = String(error.params.additionalProperty);
        const allowed = allowedKeys(error.instancePath);
        const hint = closest(key, allowed);
        const where = error.instancePath || prefix ? keyPath(`${error.instancePath}/${key}`, prefix) : key;
        lines.add(
          `unknown key ${where}${hint ? ` (did you mean ${hint}?)` : ""}${allowed.length ? `; allowed: ${allowed.join(", ")}` : ""}`,
        );
        break;
      }
      case "type":
        lines.add(`${at}: must be ${article(String(error.params.type))}`);
        break;
      case "required":
        lines.add(
          `${at === "(top level)" ? "" : `${at}: `}missing required key ${String(error.params.missingProperty)}`,
        );
        break;
      case "enum":
        lines.add(
          `${at}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        );
        break;
      case "pattern": {
        // A pattern means little to a person: the schema's `examples` (ajv `verbose` passes the schema) do.
        // The value itself is never quoted: it may be a URL with a password.
        const examples = (error.parentSchema as { examples?: unknown } | undefined)?.examples;
        lines.add(
          Array.isArray(examples) && examples.length > 0
            ? `${at}: must look like ${examples.map((example) => JSON.stringify(example)).join(" or ")}`
            : `${at}: ${error.message ?? "is invalid"}`,
        );
        break;
      }
      default:
        lines.add(`${at}: ${error.message ?? "is invalid"}`);
    }
  }
  return [...lines];
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  integer: "an integer",
  array: "a list",
  object: "a mapping",
  null: "null",
};

/** `string,null` → `a string or null`. */
function article(types: string): string {
  const names = types.split(",").map((type) => TYPE_NAMES[type] ?? `a ${type}`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? types);
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = levenshtein(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= Math.max(2, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) {
      best = { candidate, distance };
    }
  }
  return best?.candidate;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}
