import type { LoadedConfig } from "../config/index.js";
import { databaseTarget } from "./databaseTarget.js";
import { checkEmbedded } from "./embeddedCheck.js";
import { checkPostgres } from "./postgresCheck.js";
import type { DoctorCheck, DoctorOptions } from "./types.js";

/** The database `racksmith serve` would use: reachable, and how its migrations stand. */
export async function checkDatabase(
  options: DoctorOptions,
  loaded: LoadedConfig,
  runningServiceAt: string | undefined,
): Promise<DoctorCheck> {
  const target = databaseTarget(options, loaded);
  return target.kind === "postgres"
    ? checkPostgres(target, options.connectTimeoutMs)
    : checkEmbedded(target, options.cwd, runningServiceAt);
}
