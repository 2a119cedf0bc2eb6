import { type ErrorStatus, RacksmithError, type RacksmithErrorOptions } from "../../errors/index.js";

/** Stable codes of NVLink fabric errors (shared in meaning with the other fabric contracts). */
export type NvLinkFabricErrorCode =
  | "fabric_unavailable"
  | "fabric_timeout"
  | "fabric_not_found"
  | "fabric_disabled"
  | "fabric_auth_failed"
  | "fabric_rejected"
  | "fabric_bad_response";

/**
 * Base of every error an NVLink fabric raises. `fabric` names the registered fabric (`nmxm`) so an operator
 * knows which integration failed; messages never carry credentials.
 */
export class NvLinkFabricError extends RacksmithError {
  declare readonly code: NvLinkFabricErrorCode;
  readonly fabric: string;

  constructor(
    code: NvLinkFabricErrorCode,
    status: ErrorStatus,
    fabric: string,
    message: string,
    options: RacksmithErrorOptions = {},
  ) {
    super(code, status, `NVLink fabric ${fabric}: ${message}`, {
      ...options,
      details: { fabric, ...options.details },
    });
    this.fabric = fabric;
  }
}

/** The fabric manager cannot be reached (connection refused, reset, DNS, 5xx). Worth retrying later. */
export class NvLinkFabricUnavailableError extends NvLinkFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_unavailable", "UNAVAILABLE", fabric, message, options);
  }
}

/** A request took longer than the configured timeout. */
export class NvLinkFabricTimeoutError extends NvLinkFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_timeout", "DEADLINE_EXCEEDED", fabric, message, options);
  }
}

/** The GPU, partition or operation does not exist (any more). */
export class NvLinkFabricNotFoundError extends NvLinkFabricError {
  constructor(fabric: string, what: string, id: string, options: RacksmithErrorOptions = {}) {
    super("fabric_not_found", "NOT_FOUND", fabric, `${what} ${JSON.stringify(id)} not found`, {
      ...options,
      details: { kind: what, id, ...options.details },
    });
  }
}

/** NVLink partitioning is not configured; every call fails with this. */
export class NvLinkFabricDisabledError extends NvLinkFabricError {
  constructor(operation: string) {
    super(
      "fabric_disabled",
      "FAILED_PRECONDITION",
      "disabled",
      `${operation}: NVLink partitioning is disabled (configure fabrics.nvlink and load a fabric plugin such as @racksmith/fabric-nmxm)`,
      { details: { operation } },
    );
  }
}

/** The fabric manager refused the credentials (HTTP 401 / 403). */
export class NvLinkFabricAuthError extends NvLinkFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_auth_failed", "UNAUTHENTICATED", fabric, message, options);
  }
}

/** The fabric manager refused the request (HTTP 4xx other than auth and not-found). */
export class NvLinkFabricRejectedError extends NvLinkFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_rejected", "FAILED_PRECONDITION", fabric, message, options);
  }
}

/** The response could not be used: malformed JSON, an unexpected shape, or over the size limit. */
export class NvLinkFabricBadResponseError extends NvLinkFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_bad_response", "INTERNAL", fabric, message, options);
  }
}
