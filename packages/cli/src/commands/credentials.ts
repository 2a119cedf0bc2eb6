import {
  type CredentialKey,
  loadConfig,
  normalizeCredentialKey,
  openSiteCredentialStore,
  resolveInventoryConfig,
  type SiteCredentialStore,
} from "@racksmith/server";
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { readSecretFile } from "./redfish/connect.js";

interface StoreFlags {
  config?: string;
  json?: boolean;
}

interface SetFlags extends StoreFlags {
  username: string;
  passwordFile: string;
  vendor?: string;
  mac?: string;
}

/** The store the config describes (`inventory.credentials`, paths relative to the config file). */
function openStore(io: CliIo, flags: StoreFlags): SiteCredentialStore {
  const loaded = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
  return openSiteCredentialStore(resolveInventoryConfig(loaded.config.inventory).credentials, loaded.baseDir);
}

function checkedKey(key: CredentialKey, flag: string): CredentialKey {
  try {
    return normalizeCredentialKey(key);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
}

/** `racksmith credentials …`: the local credential store, like `db migrate` works on the database directly. */
export function defineCredentialsCommand(credentials: Command, io: CliIo): void {
  const withStoreFlags = (command: Command) =>
    command.option("--config <file>", "config file (default racksmith.yaml)").option("--json", "print JSON");

  withStoreFlags(
    credentials.command("init").description("create the store's random key (mode 0600) and directory"),
  ).action(async (flags: StoreFlags) => {
    const { store } = openStore(io, flags);
    await store.init();
    printOutput(
      io,
      {
        kind: "message",
        text: `created ${store.keyFile} (mode 0600) and ${store.directory}; keep a copy of the key: the secrets cannot be read without it`,
        json: { keyFile: store.keyFile, directory: store.directory },
      },
      Boolean(flags.json),
    );
  });

  const set = credentials.command("set").description("store a credential (the password is read from a file)");
  const setCommand = (name: CredentialKey["kind"], description: string) =>
    withStoreFlags(
      set
        .command(name)
        .description(description)
        .requiredOption("--username <user>", "user name")
        .requiredOption("--password-file <file>", "file holding the password (a final newline is dropped)"),
    );
  const store = async (key: CredentialKey, flags: SetFlags): Promise<void> => {
    const password = readSecretFile(io, flags.passwordFile, "--password-file");
    if (!password) throw new UsageError(`--password-file: ${flags.passwordFile} is empty`);
    await openStore(io, flags).set(key, { username: flags.username, password });
    const described = describe(key);
    printOutput(
      io,
      { kind: "message", text: `stored ${described.kind}${described.of}`, json: described.row },
      Boolean(flags.json),
    );
  };

  setCommand("site-bmc-root", "the site-wide BMC root login password rotation sets").action(
    (flags: SetFlags) => store({ kind: "site-bmc-root" }, flags),
  );
  setCommand("factory-default", "a vendor's factory-default BMC login")
    .requiredOption("--vendor <vendor>", "vendor (as drivers name it, e.g. dell, lenovo, hpe)")
    .action((flags: SetFlags) =>
      store(checkedKey({ kind: "factory-default", vendor: flags.vendor ?? "" }, "--vendor"), flags),
    );
  setCommand("bmc", "one BMC's login, by its MAC")
    .requiredOption("--mac <mac>", "BMC MAC address")
    .action((flags: SetFlags) => store(checkedKey({ kind: "bmc", mac: flags.mac ?? "" }, "--mac"), flags));

  withStoreFlags(
    credentials.command("list").description("the stored keys and where each comes from (never values)"),
  ).action(async (flags: StoreFlags) => {
    const entries = await openStore(io, flags).entries();
    const rows = entries.map((entry) => ({
      ...describe(entry.key).row,
      source: entry.source,
      file: entry.file ?? null,
    }));
    printOutput(
      io,
      { kind: "list", rows, columns: ["kind", "vendor", "mac", "source", "file"] },
      Boolean(flags.json),
    );
  });
}

/** A key as one flat row (`{ kind, vendor, mac }`, nulls where it has none) and as text. */
function describe(key: CredentialKey): {
  kind: string;
  of: string;
  row: { kind: string; vendor: string | null; mac: string | null };
} {
  const vendor = key.kind === "factory-default" ? key.vendor : null;
  const mac = "mac" in key ? key.mac : null;
  return {
    kind: key.kind,
    of: vendor ? ` for ${vendor}` : mac ? ` for ${mac}` : "",
    row: { kind: key.kind, vendor, mac },
  };
}
