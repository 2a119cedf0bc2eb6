/** `skip`: the check did not run (what it needs failed first); the detail says why. */
export type DoctorStatus = "ok" | "warn" | "fail" | "skip";

/** One finding of `racksmith doctor`; a check with several problems reports one finding per problem. */
export interface DoctorCheck {
  /** Which check: `config`, `plugins`, `secrets`, `database`, `listeners`, `node`. */
  id: string;
  title: string;
  status: DoctorStatus;
  /** What was found; never a secret (URLs are redacted, secret files are only stat'ed). */
  detail: string;
  /** What to do about it, for `warn` and `fail`. */
  fix?: string;
}

export interface DoctorOptions {
  /** Config file (relative to `cwd`); default: the first `racksmith.yaml|yml|json` in `cwd`. */
  configFile?: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `--database-url`: beats `database.url` and `RACKSMITH_DATABASE_URL`. */
  databaseUrl?: string;
  /** `--data-dir`: relative to `cwd` (the config's `database.dataDir` is relative to the config file). */
  dataDir?: string;
  /** How long to wait for PostgreSQL (default 5000). */
  connectTimeoutMs?: number;
}

export const CHECK_TITLES = {
  config: "config file",
  plugins: "plugins",
  secrets: "secret file permissions",
  database: "database",
  listeners: "listen addresses",
  node: "Node.js version",
} as const;

export type CheckId = keyof typeof CHECK_TITLES;

/** A finding of check `id` with its title filled in. */
export function finding(id: CheckId, status: DoctorStatus, detail: string, fix?: string): DoctorCheck {
  return { id, title: CHECK_TITLES[id], status, detail, ...(fix === undefined ? {} : { fix }) };
}
