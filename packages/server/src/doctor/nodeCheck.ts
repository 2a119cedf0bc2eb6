import { readFileSync } from "node:fs";
import semver from "semver";
import { type DoctorCheck, finding } from "./types.js";

/** `engines.node` of @racksmith/server (the same path from `src/doctor/` and `dist/doctor/`). */
function enginesNode(): string | undefined {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    engines?: { node?: string };
  };
  return manifest.engines?.node;
}

/** The running Node.js against the range @racksmith/server declares. */
export function checkNodeVersion(version = process.versions.node, range = enginesNode()): DoctorCheck {
  if (!range) return finding("node", "ok", `Node.js ${version}`);
  return semver.satisfies(version, range)
    ? finding("node", "ok", `Node.js ${version} (needs ${range})`)
    : finding(
        "node",
        "fail",
        `Node.js ${version} does not satisfy @racksmith/server's engines.node ${range}`,
        `install a Node.js version within ${range}`,
      );
}
