import { type ErrorStatus, RacksmithError, type RacksmithErrorOptions } from "../../errors/index.js";

/** Stable codes of fabric errors, the same for every fabric contract (InfiniBand, NVLink). */
export type FabricErrorCode =
  | "fabric_unavailable"
  | "fabric_timeout"
  | "fabric_not_found"
  | "fabric_disabled"
  | "fabric_auth_failed"
  | "fabric_rejected"
  | "fabric_bad_response";

/** How one fabric contract words its errors. */
export interface FabricErrorWording {
  /** `InfiniBand`, `NVLink`: messages read "<label> fabric <name>: …". */
  label: string;
  /** Class names: `${prefix}FabricUnavailableError`, … (what `error.name` and logs show). */
  prefix: string;
  /** Config section and example plugin for the disabled fabric's message. */
  section: string;
  examplePlugin: string;
}

/**
 * The error classes of one fabric contract: a base carrying `fabric` (the registered fabric's name, so an
 * operator knows which integration failed) and one class per code. Messages never carry credentials.
 */
export function fabricErrorFamily(wording: FabricErrorWording) {
  const { label, prefix } = wording;

  class FabricError extends RacksmithError {
    declare readonly code: FabricErrorCode;
    readonly fabric: string;

    constructor(
      code: FabricErrorCode,
      status: ErrorStatus,
      fabric: string,
      message: string,
      options: RacksmithErrorOptions = {},
    ) {
      super(code, status, `${label} fabric ${fabric}: ${message}`, {
        ...options,
        details: { fabric, ...options.details },
      });
      this.fabric = fabric;
    }
  }

  /** A code and status with the usual (fabric, message, options) constructor. */
  const simple = (code: FabricErrorCode, status: ErrorStatus) =>
    class extends FabricError {
      constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
        super(code, status, fabric, message, options);
      }
    };

  class NotFound extends FabricError {
    constructor(fabric: string, what: string, id: string, options: RacksmithErrorOptions = {}) {
      super("fabric_not_found", "NOT_FOUND", fabric, `${what} ${id} not found`, {
        ...options,
        details: { kind: what, id, ...options.details },
      });
    }
  }

  class Disabled extends FabricError {
    constructor(operation: string) {
      super(
        "fabric_disabled",
        "FAILED_PRECONDITION",
        "disabled",
        `${operation}: ${label} partitioning is disabled (configure ${wording.section} and load a fabric plugin such as ${wording.examplePlugin})`,
        { details: { operation } },
      );
    }
  }

  const family = {
    Base: FabricError,
    Unavailable: simple("fabric_unavailable", "UNAVAILABLE"),
    Timeout: simple("fabric_timeout", "DEADLINE_EXCEEDED"),
    NotFound,
    Disabled,
    Auth: simple("fabric_auth_failed", "UNAUTHENTICATED"),
    Rejected: simple("fabric_rejected", "FAILED_PRECONDITION"),
    BadResponse: simple("fabric_bad_response", "INTERNAL"),
  };
  for (const [key, type] of Object.entries(family)) {
    const name = key === "Base" ? `${prefix}FabricError` : `${prefix}Fabric${key}Error`;
    Object.defineProperty(type, "name", { value: name });
  }
  return family;
}
