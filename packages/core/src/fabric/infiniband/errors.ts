import { RacksmithError } from "../../errors/index.js";
import { type FabricErrorCode, fabricErrorFamily } from "../common/index.js";

const family = fabricErrorFamily({
  label: "InfiniBand",
  prefix: "InfiniBand",
  section: "fabrics.infiniband",
  examplePlugin: "@racksmith/fabric-ufm",
});

/** Stable codes of InfiniBand fabric errors (the same as every fabric contract's). */
export type InfiniBandFabricErrorCode = FabricErrorCode;

/**
 * Base of every error an InfiniBand fabric raises. `fabric` names the registered fabric so an operator knows
 * which integration failed; messages never carry credentials.
 */
export const InfiniBandFabricError = family.Base;
export type InfiniBandFabricError = InstanceType<typeof InfiniBandFabricError>;

/** The fabric manager cannot be reached (refused, reset, DNS, TLS) or answered 5xx. Worth retrying later. */
export const InfiniBandFabricUnavailableError = family.Unavailable;
export type InfiniBandFabricUnavailableError = InstanceType<typeof InfiniBandFabricUnavailableError>;

/** A request took longer than the configured timeout. */
export const InfiniBandFabricTimeoutError = family.Timeout;
export type InfiniBandFabricTimeoutError = InstanceType<typeof InfiniBandFabricTimeoutError>;

/** The resource (partition, GPU, operation…) does not exist (any more). */
export const InfiniBandFabricNotFoundError = family.NotFound;
export type InfiniBandFabricNotFoundError = InstanceType<typeof InfiniBandFabricNotFoundError>;

/** InfiniBand partitioning is not configured; every call of the built-in `disabled` fabric fails with this. */
export const InfiniBandFabricDisabledError = family.Disabled;
export type InfiniBandFabricDisabledError = InstanceType<typeof InfiniBandFabricDisabledError>;

/** The fabric manager refused the credentials (HTTP 401 / 403). */
export const InfiniBandFabricAuthError = family.Auth;
export type InfiniBandFabricAuthError = InstanceType<typeof InfiniBandFabricAuthError>;

/** The fabric manager refused the request (HTTP 4xx other than auth and not-found). */
export const InfiniBandFabricRejectedError = family.Rejected;
export type InfiniBandFabricRejectedError = InstanceType<typeof InfiniBandFabricRejectedError>;

/** The response could not be used: malformed JSON, an unexpected shape, or over a size limit. */
export const InfiniBandFabricBadResponseError = family.BadResponse;
export type InfiniBandFabricBadResponseError = InstanceType<typeof InfiniBandFabricBadResponseError>;

/**
 * The fabric's config section is invalid or a credential file cannot be read. Same code and meaning as the
 * core's config errors; `problems` names each key (`fabrics.infiniband.tokenFile: …`), never a secret.
 */
export class InfiniBandFabricConfigError extends RacksmithError {
  readonly problems: readonly string[];
  constructor(fabric: string, problems: readonly string[]) {
    super("config_invalid", "INVALID_ARGUMENT", `InfiniBand fabric ${fabric}: ${problems.join("; ")}`, {
      details: { fabric, problems },
    });
    this.problems = problems;
  }
}
