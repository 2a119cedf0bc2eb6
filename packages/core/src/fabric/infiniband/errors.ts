import { type ErrorStatus, RacksmithError, type RacksmithErrorOptions } from "../../errors/index.js";

/** Stable codes of InfiniBand fabric errors (the same meanings as the NVLink fabric's). */
export type InfiniBandFabricErrorCode =
  | "fabric_unavailable"
  | "fabric_timeout"
  | "fabric_not_found"
  | "fabric_disabled"
  | "fabric_auth_failed"
  | "fabric_rejected"
  | "fabric_bad_response";

/**
 * Base of every error an InfiniBand fabric raises. `fabric` names the registered fabric (`ufm`) so an
 * operator knows which integration failed; messages never carry credentials.
 */
export class InfiniBandFabricError extends RacksmithError {
  declare readonly code: InfiniBandFabricErrorCode;
  readonly fabric: string;

  constructor(
    code: InfiniBandFabricErrorCode,
    status: ErrorStatus,
    fabric: string,
    message: string,
    options: RacksmithErrorOptions = {},
  ) {
    super(code, status, `InfiniBand fabric ${fabric}: ${message}`, {
      ...options,
      details: { fabric, ...options.details },
    });
    this.fabric = fabric;
  }
}

/** The fabric manager cannot be reached (refused, reset, DNS, TLS) or answered 5xx. Worth retrying later. */
export class InfiniBandFabricUnavailableError extends InfiniBandFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_unavailable", "UNAVAILABLE", fabric, message, options);
  }
}

/** A request took longer than the configured timeout. */
export class InfiniBandFabricTimeoutError extends InfiniBandFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_timeout", "DEADLINE_EXCEEDED", fabric, message, options);
  }
}

/** The partition (or other resource) does not exist. */
export class InfiniBandFabricNotFoundError extends InfiniBandFabricError {
  constructor(fabric: string, what: string, id: string, options: RacksmithErrorOptions = {}) {
    super("fabric_not_found", "NOT_FOUND", fabric, `${what} ${id} not found`, {
      ...options,
      details: { kind: what, id, ...options.details },
    });
  }
}

/** InfiniBand partitioning is not configured; every call of the built-in `disabled` fabric fails with this. */
export class InfiniBandFabricDisabledError extends InfiniBandFabricError {
  constructor(operation: string) {
    super(
      "fabric_disabled",
      "FAILED_PRECONDITION",
      "disabled",
      `${operation}: InfiniBand partitioning is disabled (configure fabrics.infiniband and load a fabric plugin such as @racksmith/fabric-ufm)`,
      { details: { operation } },
    );
  }
}

/** The fabric manager refused the credentials (HTTP 401 / 403). */
export class InfiniBandFabricAuthError extends InfiniBandFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_auth_failed", "UNAUTHENTICATED", fabric, message, options);
  }
}

/** The fabric manager refused the request (HTTP 4xx other than auth and not-found). */
export class InfiniBandFabricRejectedError extends InfiniBandFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_rejected", "FAILED_PRECONDITION", fabric, message, options);
  }
}

/** The response could not be used: malformed JSON or an unexpected shape. */
export class InfiniBandFabricBadResponseError extends InfiniBandFabricError {
  constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
    super("fabric_bad_response", "INTERNAL", fabric, message, options);
  }
}

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
