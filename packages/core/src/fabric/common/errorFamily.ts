import {
  ERROR_CODES,
  type ErrorCode,
  type ErrorStatus,
  RacksmithError,
  type RacksmithErrorOptions,
} from "../../errors/index.js";

/**
 * Stable codes of fabric errors, the same for every fabric contract (InfiniBand, NVLink): the catalogue's
 * `fabric_*` codes, each with the catalogue's status.
 */
export type FabricErrorCode = Extract<ErrorCode, `fabric_${string}`>;

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

  /** A code (with the catalogue's status) and the usual (fabric, message, options) constructor. */
  const simple = (code: FabricErrorCode) =>
    class extends FabricError {
      constructor(fabric: string, message: string, options: RacksmithErrorOptions = {}) {
        super(code, ERROR_CODES[code].status, fabric, message, options);
      }
    };

  class NotFound extends FabricError {
    constructor(fabric: string, what: string, id: string, options: RacksmithErrorOptions = {}) {
      super("fabric_not_found", ERROR_CODES.fabric_not_found.status, fabric, `${what} ${id} not found`, {
        ...options,
        details: { kind: what, id, ...options.details },
      });
    }
  }

  class Disabled extends FabricError {
    constructor(operation: string) {
      super(
        "fabric_disabled",
        ERROR_CODES.fabric_disabled.status,
        "disabled",
        `${operation}: ${label} partitioning is disabled (configure ${wording.section} and load a fabric plugin such as ${wording.examplePlugin})`,
        { details: { operation } },
      );
    }
  }

  const family = {
    Base: FabricError,
    Unavailable: simple("fabric_unavailable"),
    Timeout: simple("fabric_timeout"),
    NotFound,
    Disabled,
    Auth: simple("fabric_auth_failed"),
    Rejected: simple("fabric_rejected"),
    BadResponse: simple("fabric_bad_response"),
  };
  for (const [key, type] of Object.entries(family)) {
    const name = key === "Base" ? `${prefix}FabricError` : `${prefix}Fabric${key}Error`;
    Object.defineProperty(type, "name", { value: name });
  }
  return family;
}
