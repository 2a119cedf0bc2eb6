import { isRacksmithError, REDACTED } from "@racksmith/core";

function scrub(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => (secret.length >= 3 ? out.split(secret).join(REDACTED) : out), text);
}

/** Removes the secrets from an error's message, stack, details and Redfish messages, in place. */
function scrubError(error: unknown, secrets: readonly string[]): void {
  if (!(error instanceof Error)) return;
  error.message = scrub(error.message, secrets);
  if (error.stack) error.stack = scrub(error.stack, secrets);
  if (isRacksmithError(error)) {
    for (const [key, value] of Object.entries(error.details)) {
      if (typeof value === "string") error.details[key] = scrub(value, secrets);
    }
  }
  const messages: unknown = (error as { messages?: unknown }).messages;
  for (const message of Array.isArray(messages) ? (messages as Array<Record<string, unknown>>) : []) {
    for (const field of ["message", "resolution"]) {
      const text = message[field];
      if (typeof text === "string") message[field] = scrub(text, secrets);
    }
  }
}

/**
 * Runs a request that carries new secrets (an account or UEFI password). A BMC may echo them in its error
 * answer, and the client only knows to scrub the credentials it logs in with.
 */
export async function withSecretsScrubbed<T>(secrets: readonly string[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    scrubError(error, secrets);
    throw error;
  }
}
