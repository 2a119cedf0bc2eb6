import { constants } from "node:fs";
import { access, readdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { migrationStatus, openDatabase } from "../db/index.js";
import type { DatabaseTarget } from "./databaseTarget.js";
import { migrationFinding } from "./migrationFindings.js";
import { displayPath } from "./paths.js";
import { type DoctorCheck, finding } from "./types.js";

const SETTINGS = "database.dataDir / --data-dir";

/**
 * The embedded PGlite directory: created on first start when missing (doctor creates nothing), else opened
 * to read its migrations and closed again — unless a running service may hold it (PGlite serves one process).
 */
export async function checkEmbedded(
  target: Extract<DatabaseTarget, { kind: "embedded" }>,
  cwd: string,
  runningServiceAt: string | undefined,
): Promise<DoctorCheck> {
  const shown = displayPath(target.dataDir, cwd);
  const where = `embedded PGlite at ${shown}`;
  const info = await stat(target.dataDir).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    if (info.code !== "ENOENT") return unusable(`${where}: cannot check it: ${info.code ?? info.message}`);
    const ancestor = await nearestExisting(dirname(target.dataDir));
    return (await writable(ancestor))
      ? finding("database", "ok", `${where}: will be created on first start`)
      : unusable(
          `${where} cannot be created: ${displayPath(ancestor, cwd)} is not writable by this user`,
          `make ${displayPath(ancestor, cwd)} writable, or set ${SETTINGS} to another directory`,
        );
  }
  if (!info.isDirectory()) return unusable(`${where} is not a directory`);
  if (!(await writable(target.dataDir))) {
    return unusable(
      `${where} is not writable by this user`,
      `run racksmith as the directory's owner, or set ${SETTINGS} to another directory`,
    );
  }
  const entries = await readdir(target.dataDir);
  if (entries.length === 0) return finding("database", "ok", `${where}: empty, initialized on first start`);
  if (!entries.includes("PG_VERSION")) {
    return unusable(
      `${where} is not a PGlite data directory (it has files but no PG_VERSION)`,
      `set ${SETTINGS} to the data directory, or to a new one`,
    );
  }
  if (runningServiceAt) {
    return finding(
      "database",
      "skip",
      `${where}: not opened, a Racksmith service answers at ${runningServiceAt} and may have it open (embedded PGlite serves one process)`,
    );
  }
  try {
    const database = await openDatabase({ dataDir: target.dataDir });
    try {
      return migrationFinding(where, (await migrationStatus(database)).applied);
    } finally {
      await database.close();
    }
  } catch (error) {
    return unusable(`cannot open ${where}: ${error instanceof Error ? error.message : String(error)}`);
  }

  function unusable(detail: string, fix = `fix ${SETTINGS} (from ${target.source} now)`): DoctorCheck {
    return finding("database", "fail", detail, fix);
  }
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

async function nearestExisting(path: string): Promise<string> {
  let dir = path;
  while (dirname(dir) !== dir && !(await exists(dir))) dir = dirname(dir);
  return dir;
}

function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
