import { type RedfishClient, RedfishHttpError } from "@racksmith/core/redfish";
import type { BmcCredentials, CredentialStore } from "../inventory/contracts.js";
import type { BmcConnector } from "./bmcConnector.js";
import { isRefusedLogin, verifyLogin } from "./bmcLogin.js";
import { ExplorationError, messageOf } from "./explorationFailure.js";

export interface RotationTarget {
  store: CredentialStore;
  mac: string;
  address: string;
  systemsPath: string;
  connector: BmcConnector;
}

/** What a rotation is doing (named when an exploration's deadline interrupts it). */
export type RotationStep =
  | "storing the rotation intent"
  | "changing the BMC's password"
  | "verifying the new password"
  | "storing the new password";

export interface RotationResult {
  client: RedfishClient;
  credentials: BmcCredentials;
}

/**
 * Replaces a BMC's password crash-safely: the intent (`bmc-rotation`) is stored BEFORE the BMC is changed,
 * the new password is proven by a fresh login, and only then does it become the BMC's credentials and the
 * intent go away. Whatever step a crash interrupts, the next contact tries the intended password first and
 * the old one next, so the only working password is never lost. `failedLogins` grows with refused logins.
 * An aborted request (the exploration's deadline) is such an interruption: after the change was sent, its
 * outcome is unknown and the intent stays, exactly as after a crash.
 */
export async function rotatePassword(
  target: RotationTarget,
  current: BmcCredentials,
  newPassword: string,
  change: (credentials: BmcCredentials) => Promise<void>,
  counters: { failedLogins: number },
  onStep: (step: RotationStep) => void = () => undefined,
): Promise<RotationResult> {
  const { store, mac } = target;
  const next: BmcCredentials = { username: current.username, password: newPassword };
  onStep("storing the rotation intent");
  await store.set({ kind: "bmc-rotation", mac }, next);
  try {
    onStep("changing the BMC's password");
    await change(next);
  } catch (error) {
    // A refusal is definite (the BMC kept its password); after a timeout or an abort nobody knows, so the
    // intent stays.
    if (error instanceof RedfishHttpError) await store.delete({ kind: "bmc-rotation", mac });
    throw new ExplorationError(
      "rotation_failed",
      `the BMC did not take the new password: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  onStep("verifying the new password");
  const client = target.connector(target.address, next);
  try {
    await verifyLogin(client, target.systemsPath);
  } catch (error) {
    await client.close();
    if (isRefusedLogin(error)) {
      counters.failedLogins++;
      await forgetIntentIfOldStillWorks(target, current, counters);
    }
    throw new ExplorationError(
      "rotation_failed",
      `the new password could not be verified: ${messageOf(error)}`,
      { cause: error },
    );
  }
  try {
    onStep("storing the new password");
    await store.set({ kind: "bmc", mac }, next);
    await store.delete({ kind: "bmc-rotation", mac });
  } catch (error) {
    await client.close();
    throw new ExplorationError(
      "rotation_failed",
      `the BMC has the new password but it could not be stored (the next run finishes the rotation): ${messageOf(error)}`,
      { cause: error },
    );
  }
  return { client, credentials: next };
}

/** After a failed verification: if the old password still logs in, the change did not happen. */
async function forgetIntentIfOldStillWorks(
  target: RotationTarget,
  old: BmcCredentials,
  counters: { failedLogins: number },
): Promise<void> {
  const client = target.connector(target.address, old);
  try {
    await verifyLogin(client, target.systemsPath);
    await target.store.delete({ kind: "bmc-rotation", mac: target.mac });
  } catch (error) {
    if (isRefusedLogin(error)) counters.failedLogins++;
  } finally {
    await client.close();
  }
}
