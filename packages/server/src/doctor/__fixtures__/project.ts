import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type LoadedConfig, loadConfig } from "../../config/index.js";

// File modes are POSIX; on Windows ACLs protect files and doctor does not check modes.
export const POSIX = process.platform !== "win32";

/** `content` writes a file, `directory` makes one; `mode` is set exactly (whatever the umask). */
export type ProjectEntry = { content: string; mode?: number } | { directory: true; mode?: number };

/** A temporary project directory with a `racksmith.yaml` (unless undefined) and the given entries. */
export function tempProject(config: string | undefined, entries: Record<string, ProjectEntry> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-doctor-"));
  if (config !== undefined) writeFileSync(join(dir, "racksmith.yaml"), config);
  for (const [path, entry] of Object.entries(entries)) {
    const full = join(dir, path);
    if ("directory" in entry) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, entry.content);
    }
    if (entry.mode !== undefined) chmodSync(full, entry.mode);
  }
  return dir;
}

export function loadProject(dir: string): LoadedConfig {
  return loadConfig({ cwd: dir });
}

/** A plugin package with no imports (so it loads from any directory): a manifest object and its range. */
export function pluginPackage(name: string, coreRange: string): Record<string, ProjectEntry> {
  return {
    [`plugins/${name}/package.json`]: {
      content: JSON.stringify({
        name,
        version: "1.0.0",
        type: "module",
        main: "index.js",
        peerDependencies: { "@racksmith/core": coreRange },
      }),
    },
    [`plugins/${name}/index.js`]: {
      content: `export default { $$type: "@racksmith/plugin", name: ${JSON.stringify(name)}, version: "1.0.0", apiVersion: 1, register() {} };\n`,
    },
  };
}
