import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type BmcDriver, connectBmc, type DriverSelection, redfishStandardDriver } from "@racksmith/core";
import { RedfishClient, type RedfishCredentials } from "@racksmith/core/redfish";
import { createPluginHost, loadConfig } from "@racksmith/server";
import { UsageError } from "../../errors.js";
import type { CliIo } from "../../io.js";

export interface BmcFlags {
  address?: string;
  username?: string;
  password?: string;
  passwordFile?: string;
  insecure?: boolean;
  caFile?: string;
  auth?: string;
  driver?: string;
  config?: string;
  timeout?: string;
}

export interface BmcConnection {
  client: RedfishClient;
  driver: BmcDriver;
  selection: DriverSelection;
}

/** Reads a secret from a file, without the trailing newline editors add. */
export function readSecretFile(io: CliIo, file: string, flag: string): string {
  try {
    return readFileSync(resolve(io.cwd, file), "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new UsageError(
      `${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

export function credentialsFrom(io: CliIo, flags: BmcFlags): RedfishCredentials | undefined {
  if (flags.password !== undefined && flags.passwordFile !== undefined) {
    throw new UsageError("give either --password or --password-file, not both");
  }
  const password =
    flags.passwordFile !== undefined
      ? readSecretFile(io, flags.passwordFile, "--password-file")
      : (flags.password ?? io.env.RACKSMITH_BMC_PASSWORD);
  if (password === undefined) {
    if (flags.username !== undefined) throw new UsageError("--username needs --password or --password-file");
    return undefined;
  }
  return { username: flags.username ?? "root", password };
}

export function createClient(io: CliIo, flags: BmcFlags): RedfishClient {
  if (!flags.address) throw new UsageError("--address is required");
  const auth = flags.auth ?? "basic";
  if (auth !== "basic" && auth !== "session" && auth !== "none") {
    throw new UsageError(`--auth must be basic, session or none, got ${JSON.stringify(auth)}`);
  }
  const credentials = credentialsFrom(io, flags);
  const timeout = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (timeout !== undefined && !(timeout > 0))
    throw new UsageError("--timeout must be a positive number of seconds");
  const ca = flags.caFile ? readSecretFile(io, flags.caFile, "--ca-file") : undefined;
  return new RedfishClient({
    address: flags.address,
    ...(credentials ? { credentials } : {}),
    auth: credentials ? auth : "none",
    tls: { ...(flags.insecure ? { insecure: true } : {}), ...(ca ? { ca } : {}) },
    ...(timeout ? { requestTimeoutMs: timeout * 1000 } : {}),
  });
}

/** Connects to a BMC: loads the configured plugins, probes the service, selects (or uses the pinned) driver. */
export async function connect(io: CliIo, flags: BmcFlags): Promise<BmcConnection> {
  const config = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
  const { host } = await createPluginHost(config);
  const client = createClient(io, flags);
  try {
    const { driver, selection } = await connectBmc(client, {
      drivers: host.bmcDriverDefinitions(),
      fallback: redfishStandardDriver,
      settings: (definition) => host.driverSettings(definition.name),
      ...(flags.driver ? { pinned: flags.driver } : {}),
    });
    return { client, driver, selection };
  } catch (error) {
    await client.close();
    throw error;
  }
}
