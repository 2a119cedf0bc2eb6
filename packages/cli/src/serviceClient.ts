import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RacksmithError } from "@racksmith/core/errors";
import { ServiceClient as BaseServiceClient } from "@racksmith/server";
import type { Command } from "commander";
import type { CliIo } from "./io.js";

export { ServiceError } from "@racksmith/server";

export const DEFAULT_SERVER = "http://127.0.0.1:8080";
/** Where `racksmith serve` run from the same folder writes its first admin token. */
export const DEFAULT_TOKEN_FILE = ".racksmith/data/admin.token";

/** How a command reaches the service: `--server`, `--token`, `--token-file` (commander's options). */
export interface ServerConnectionFlags {
  server?: string;
  token?: string;
  tokenFile?: string;
}

/** `--server URL`, `--token`, `--token-file` and `--json`, for every command that talks to `racksmith serve`. */
export function addServerFlags(command: Command): Command {
  return command
    .option("--server <url>", `Racksmith service (default ${DEFAULT_SERVER}, or RACKSMITH_SERVER)`)
    .option("--token <token>", "bearer token (default RACKSMITH_TOKEN)")
    .option(
      "--token-file <file>",
      `file holding the token (default RACKSMITH_TOKEN_FILE, else ${DEFAULT_TOKEN_FILE} when it exists)`,
    )
    .option("--json", "print JSON");
}

/**
 * The token a command sends: `--token`, RACKSMITH_TOKEN, `--token-file`, RACKSMITH_TOKEN_FILE, else the
 * admin token a `racksmith serve` started in this folder wrote; none when there is none.
 */
export function resolveToken(
  flags: ServerConnectionFlags,
  io: Pick<CliIo, "env" | "cwd">,
): string | undefined {
  const given = flags.token ?? io.env.RACKSMITH_TOKEN;
  if (given) return given.trim();
  const file = flags.tokenFile ?? io.env.RACKSMITH_TOKEN_FILE;
  if (file) return readToken(resolve(io.cwd, file), true);
  return readToken(resolve(io.cwd, DEFAULT_TOKEN_FILE), false);
}

function readToken(file: string, required: boolean): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    if (!required) return undefined;
    throw new RacksmithError(
      "invalid_argument",
      "INVALID_ARGUMENT",
      `--token-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
}

/** The service's REST client: base URL from `--server`, else RACKSMITH_SERVER, else the default; its token. */
export class ServiceClient extends BaseServiceClient {
  constructor(flags: ServerConnectionFlags, io: Pick<CliIo, "env" | "cwd">) {
    super(flags.server ?? io.env.RACKSMITH_SERVER ?? DEFAULT_SERVER, { token: resolveToken(flags, io) });
  }
}
