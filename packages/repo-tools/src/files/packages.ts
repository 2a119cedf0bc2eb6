import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The folders under packages/, sorted. */
export function packageFolders(root: string): string[] {
  return readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
