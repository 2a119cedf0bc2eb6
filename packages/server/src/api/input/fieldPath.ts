import { excerpt } from "./excerpt.js";

/** How many characters of an object key a field path quotes: a key is input too, and may be huge. */
const KEY_EXCERPT_LENGTH = 64;

/** `path` extended by an object key (`body.labels.rack`) or an array index (`body.interfaces[0]`). */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  const name = excerpt(key, KEY_EXCERPT_LENGTH);
  return path ? `${path}.${name}` : name;
}

/**
 * The field an ajv error's JSON pointer names, under `location`: `/interfaces/0/device` in the body is
 * `body.interfaces[0].device`. A key of digits is read as an array index.
 */
export function fieldPath(location: string, instancePath: string): string {
  if (!instancePath) return location;
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<string>((path, part) => childPath(path, /^\d+$/.test(part) ? Number(part) : part), location);
}
