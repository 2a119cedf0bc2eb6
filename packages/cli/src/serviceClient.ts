import { ServiceClient as BaseServiceClient } from "@racksmith/server";
import type { Command } from "commander";
import type { CliIo } from "./io.js";

export { ServiceError } from "@racksmith/server";

export const DEFAULT_SERVER = "http://127.0.0.1:8080";

/** `--server URL` and `--json`, for every command that talks to a running `racksmith serve`. */
export function addServerFlags(command: Command): Command {
  return command
    .option("--server <url>", `Racksmith service (default ${DEFAULT_SERVER}, or RACKSMITH_SERVER)`)
    .option("--json", "print JSON");
}

/** The service's REST client, its base URL from `--server`, else RACKSMITH_SERVER, else the default. */
export class ServiceClient extends BaseServiceClient {
  constructor(server: string | undefined, io: Pick<CliIo, "env">) {
    super(server ?? io.env.RACKSMITH_SERVER ?? DEFAULT_SERVER);
  }
}
