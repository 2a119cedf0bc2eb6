import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { CORE_VERSION, PLUGIN_API_VERSION } from "@racksmith/core";

/** The Racksmith the generated package is written for: the one running this command. */
export interface ScaffoldVersions {
  /** Ranges of the running packages (`^<major>.<minor>.0`). */
  core: string;
  testkit: string;
  cli: string;
  /** The plugin API the manifest declares (the running core's `PLUGIN_API_VERSION`). */
  apiVersion: number;
}

/** The development tools the generated package uses (the versions this repository builds with). */
export const TOOL_VERSIONS = {
  "@changesets/cli": "^2.31.1",
  "@types/node": "^20.19.0",
  typescript: "~5.9.3",
  vitest: "^4.0.0",
} as const;

/** `^<major>.<minor>.0`: the running version's minor line (a 0.x minor may break a plugin, a patch not). */
export function minorRange(version: string): string {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(version);
  if (!match) throw new Error(`not a semver version: ${version}`);
  return `^${match[1]}.${match[2]}.0`;
}

export function scaffoldVersions(): ScaffoldVersions {
  const require = createRequire(import.meta.url);
  const versionOf = (path: string): string =>
    (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
  return {
    core: minorRange(CORE_VERSION),
    testkit: minorRange(versionOf(require.resolve("@racksmith/testkit/package.json"))),
    cli: minorRange(versionOf(fileURLToPath(new URL("../../../package.json", import.meta.url)))),
    apiVersion: PLUGIN_API_VERSION,
  };
}
