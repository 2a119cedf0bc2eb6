import { PasswordChangeRequiredError, type RedfishClient, RedfishHttpError } from "@racksmith/core/redfish";
import type { BmcConnector } from "./bmcConnector.js";
import type { CredentialCandidate } from "./credentialCandidates.js";

/** A login that worked, or one the BMC accepted only to demand a password change first. */
export type AcceptedLogin =
  | { kind: "ok"; candidate: CredentialCandidate; client: RedfishClient }
  | {
      kind: "password-change-required";
      candidate: CredentialCandidate;
      client: RedfishClient;
      accountUri: string;
    };

export interface LoginResult {
  accepted: AcceptedLogin | undefined;
  /** Logins the BMC refused (they count toward its lockout). */
  failed: number;
  /** Candidates left untried because the lockout budget ran out. */
  untried: number;
}

/** One authenticated read proves a login (a Basic login is only checked when a request carries it). */
export async function verifyLogin(client: RedfishClient, systemsPath: string): Promise<void> {
  await client.get(systemsPath);
}

/** True for "these credentials are wrong" (not for a BMC that is down or broken). */
export function isRefusedLogin(error: unknown): boolean {
  return (
    error instanceof RedfishHttpError &&
    !(error instanceof PasswordChangeRequiredError) &&
    error.httpStatus === 401
  );
}

/**
 * Tries the candidates in order, at most `attemptsLeft` refused logins, and returns the first the BMC accepts
 * (its client stays open). Any failure other than a refused login is thrown: the BMC is not usable now.
 */
export async function logIn(
  connector: BmcConnector,
  address: string,
  candidates: readonly CredentialCandidate[],
  options: { attemptsLeft: number; systemsPath: string },
): Promise<LoginResult> {
  let failed = 0;
  for (const [index, candidate] of candidates.entries()) {
    if (failed >= options.attemptsLeft)
      return { accepted: undefined, failed, untried: candidates.length - index };
    const client = connector(address, candidate.credentials);
    try {
      await verifyLogin(client, options.systemsPath);
      return { accepted: { kind: "ok", candidate, client }, failed, untried: 0 };
    } catch (error) {
      if (error instanceof PasswordChangeRequiredError) {
        const accountUri = error.messages
          .find((message) => /PasswordChangeRequired$/.test(message.messageId))
          ?.messageArgs?.find((arg) => arg.startsWith("/"));
        if (accountUri) {
          return {
            accepted: { kind: "password-change-required", candidate, client, accountUri },
            failed,
            untried: 0,
          };
        }
      }
      await client.close();
      if (!isRefusedLogin(error)) throw error;
      failed++;
    }
  }
  return { accepted: undefined, failed, untried: 0 };
}
