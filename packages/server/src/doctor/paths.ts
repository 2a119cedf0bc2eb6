import { isAbsolute, relative } from "node:path";

/** A path as the operator typed it: relative to where doctor runs when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
