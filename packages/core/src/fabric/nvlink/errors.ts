import { type FabricErrorCode, fabricErrorFamily } from "../common/index.js";

const family = fabricErrorFamily({
  label: "NVLink",
  prefix: "NvLink",
  section: "fabrics.nvlink",
  examplePlugin: "@racksmith/fabric-nmxm",
});

/** Stable codes of NVLink fabric errors (the same as every fabric contract's). */
export type NvLinkFabricErrorCode = FabricErrorCode;

/**
 * Base of every error an NVLink fabric raises. `fabric` names the registered fabric so an operator knows
 * which integration failed; messages never carry credentials.
 */
export const NvLinkFabricError = family.Base;
export type NvLinkFabricError = InstanceType<typeof NvLinkFabricError>;

/** The fabric manager cannot be reached (refused, reset, DNS, TLS) or answered 5xx. Worth retrying later. */
export const NvLinkFabricUnavailableError = family.Unavailable;
export type NvLinkFabricUnavailableError = InstanceType<typeof NvLinkFabricUnavailableError>;

/** A request took longer than the configured timeout. */
export const NvLinkFabricTimeoutError = family.Timeout;
export type NvLinkFabricTimeoutError = InstanceType<typeof NvLinkFabricTimeoutError>;

/** The resource (partition, GPU, operation…) does not exist (any more). */
export const NvLinkFabricNotFoundError = family.NotFound;
export type NvLinkFabricNotFoundError = InstanceType<typeof NvLinkFabricNotFoundError>;

/** NVLink partitioning is not configured; every call of the built-in `disabled` fabric fails with this. */
export const NvLinkFabricDisabledError = family.Disabled;
export type NvLinkFabricDisabledError = InstanceType<typeof NvLinkFabricDisabledError>;

/** The fabric manager refused the credentials (HTTP 401 / 403). */
export const NvLinkFabricAuthError = family.Auth;
export type NvLinkFabricAuthError = InstanceType<typeof NvLinkFabricAuthError>;

/** The fabric manager refused the request (HTTP 4xx other than auth and not-found). */
export const NvLinkFabricRejectedError = family.Rejected;
export type NvLinkFabricRejectedError = InstanceType<typeof NvLinkFabricRejectedError>;

/** The response could not be used: malformed JSON, an unexpected shape, or over a size limit. */
export const NvLinkFabricBadResponseError = family.BadResponse;
export type NvLinkFabricBadResponseError = InstanceType<typeof NvLinkFabricBadResponseError>;
