import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

const SKIPPED = new Set(["node_modules", "dist", ".git", ".turbo", ".racksmith", "coverage"]);

/** Every file under `root` (paths relative to it, with `/`), skipping installs, builds and caches. */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(root);
  return files.sort();
}
