import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type BmcDriver, connectBmc, type DriverSelection, redfishStandardDriver } from "@racksmith/core";
import { RedfishClient, type RedfishCredentials, RedfishHttpError } from "@racksmith/core/redfish";
import { createPluginHost, loadConfig } from "@racksmith/server";
import { BmcAuthenticationError, UsageError } from "../../errors.js";
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

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** The address as given, once it names http or https: a bare host would be guessed as https and fail obscurely. */
function checkAddress(address: string | undefined): string {
  if (!address) throw new UsageError("--address is required");
  const scheme = SCHEME.exec(address)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw new UsageError(
      `--address needs a scheme: https://${address} (a BMC) or http://${address} (a mockup served without --tls)`,
    );
  }
  if (scheme !== "http" && scheme !== "https") {
    throw new UsageError(`--address must start with http:// or https://, not ${scheme}://`);
  }
  return address;
}

export function createClient(
  io: CliIo,
  flags: BmcFlags,
  credentials: RedfishCredentials | undefined = credentialsFrom(io, flags),
): RedfishClient {
  const address = checkAddress(flags.address);
  const auth = flags.auth ?? "basic";
  if (auth !== "basic" && auth !== "session" && auth !== "none") {
    throw new UsageError(`--auth must be basic, session or none, got ${JSON.stringify(auth)}`);
  }
  const timeout = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (timeout !== undefined && !(timeout > 0))
    throw new UsageError("--timeout must be a positive number of seconds");
  const ca = flags.caFile ? readSecretFile(io, flags.caFile, "--ca-file") : undefined;
  return new RedfishClient({
    address,
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
  // Read once: a --password-file is read for the client and named in an authentication failure.
  const credentials = credentialsFrom(io, flags);
  const client = createClient(io, flags, credentials);
  try {
    const { driver, selection } = await connectBmc(client, {
      drivers: host.bmcDriverDefinitions(),
      fallback: redfishStandardDriver,
      settings: (definition) => host.driverSettings(definition.name),
      ...(flags.driver ? { pinned: flags.driver } : {}),
    });
    await checkCredentials(client, credentials, flags);
    return { client, driver, selection };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Driver selection reads only what a BMC shows without credentials, so a wrong password would go unnoticed
 * until the first real read: one authenticated read of the systems collection says so at once.
 */
async function checkCredentials(
  client: RedfishClient,
  credentials: RedfishCredentials | undefined,
  flags: BmcFlags,
): Promise<void> {
  if (!credentials || flags.auth === "none") return;
  try {
    await client.get("/redfish/v1/Systems");
  } catch (error) {
    if (error instanceof RedfishHttpError && error.httpStatus === 401) {
      throw new BmcAuthenticationError(credentials.username, flags.address ?? "", { cause: error });
    }
    // Anything else (a BMC without a systems collection, a 403 for a password change) is the operation's to report.
  }
}
