import type { BmcCredentials, CredentialStore } from "../contracts.js";
import type { ValidExpectedMachine } from "./validate.js";

/** A machine about to be written, and what that does to its factory login in the credential store. */
export interface PlannedMachine {
  machine: ValidExpectedMachine;
  hasFactoryPassword: boolean;
  /** A new value to store, or `delete`, or nothing to do. */
  change: { set: BmcCredentials } | "delete" | undefined;
}

/** What the row says about the stored login. */
export interface StoredFactoryLogin {
  has_factory_password: boolean;
}

// Secret files read or written at once: parallel enough for big imports, far below open-file limits.
const PARALLEL_FILES = 16;

async function inGroups<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL_FILES) {
    results.push(...(await Promise.all(items.slice(i, i + PARALLEL_FILES).map(run))));
  }
  return results;
}

/**
 * Passwords are write-only (no response returns one), so an omitted `factoryPassword` keeps the stored one
 * as long as the machine still has a `factoryUsername`; a changed user name is re-stored with it.
 */
export function planFactoryCredentials(
  machines: readonly ValidExpectedMachine[],
  stored: ReadonlyMap<string, StoredFactoryLogin>,
  credentials: CredentialStore,
): Promise<PlannedMachine[]> {
  return inGroups(machines, async (machine): Promise<PlannedMachine> => {
    const current = stored.get(machine.bmcMac)?.has_factory_password
      ? await credentials.get({ kind: "bmc-factory", mac: machine.bmcMac })
      : undefined;
    const username = machine.factoryUsername;
    const password = machine.factoryPassword ?? (username !== null ? current?.password : undefined);
    if (username === null || password === undefined) {
      return { machine, hasFactoryPassword: false, change: current ? "delete" : undefined };
    }
    const unchanged = current?.username === username && current.password === password;
    return {
      machine,
      hasFactoryPassword: true,
      change: unchanged ? undefined : { set: { username, password } },
    };
  });
}

/** Stores new values (inside the database transaction, so a failure rolls the rows back). */
export async function storeFactoryCredentials(
  planned: readonly PlannedMachine[],
  credentials: CredentialStore,
): Promise<void> {
  await inGroups(planned, async ({ machine, change }) => {
    if (typeof change === "object")
      await credentials.set({ kind: "bmc-factory", mac: machine.bmcMac }, change.set);
  });
}

/** Removes logins (after the commit, so a failed transaction never loses a password its row still needs). */
export async function removeFactoryCredentials(
  bmcMacs: readonly string[],
  credentials: CredentialStore,
): Promise<void> {
  await inGroups(bmcMacs, (bmcMac) => credentials.delete({ kind: "bmc-factory", mac: bmcMac }));
}
