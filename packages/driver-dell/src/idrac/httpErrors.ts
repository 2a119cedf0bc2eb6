import { REDACTED } from "@racksmith/core";
import { PasswordChangeRequiredError, RedfishHttpError } from "@racksmith/core/redfish";

/** True when the BMC answered with one of these HTTP statuses. */
export function hasHttpStatus(error: unknown, ...statuses: number[]): error is RedfishHttpError {
  return error instanceof RedfishHttpError && statuses.includes(error.httpStatus);
}

/** Everything the BMC said about a failure, for matching its wording. */
export function errorText(error: RedfishHttpError): string {
  return [...error.messages.map((m) => m.message ?? ""), error.bodyExcerpt].join(" ");
}

/** A 400 whose text says an attribute is read-only (it depends on a reboot or another pending value). */
export function isReadOnlyRefusal(error: unknown): boolean {
  return hasHttpStatus(error, 400) && /read-?only/i.test(errorText(error));
}

function scrub(text: string, secrets: readonly string[]): string {
  // Very short secrets would cut ordinary words out of the message; the client ignores them the same way.
  return secrets
    .filter((secret) => secret.length >= 3)
    .reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

/**
 * Runs a request that carries secrets the client does not know about (a new account or UEFI password). A BMC
 * that echoes them in its error gets them cut out before the error travels or is logged.
 */
export async function withoutSecretsInErrors<T>(
  secrets: readonly string[],
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!(error instanceof RedfishHttpError)) throw error;
    const args = {
      method: error.method,
      path: error.path,
      httpStatus: error.httpStatus,
      messages: error.messages.map((m) => ({
        ...m,
        ...(m.message !== undefined ? { message: scrub(m.message, secrets) } : {}),
        ...(m.resolution !== undefined ? { resolution: scrub(m.resolution, secrets) } : {}),
      })),
      bodyExcerpt: scrub(error.bodyExcerpt, secrets),
    };
    throw error instanceof PasswordChangeRequiredError
      ? new PasswordChangeRequiredError(args)
      : new RedfishHttpError(args);
  }
}
