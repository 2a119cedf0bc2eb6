import { RacksmithError, type RacksmithErrorOptions } from "./racksmithError.js";

/** The hardware (or its driver) cannot do this operation. Never thrown for a transient failure. */
export class NotSupportedError extends RacksmithError {
  readonly operation: string;
  constructor(operation: string, reason: string, options: RacksmithErrorOptions = {}) {
    super("not_supported", "UNIMPLEMENTED", `${operation} is not supported: ${reason}`, {
      ...options,
      details: { operation, ...options.details },
    });
    this.operation = operation;
  }
}

/** A caller passed a value the operation cannot use; the message names the argument. */
export class InvalidArgumentError extends RacksmithError {
  constructor(message: string, options: RacksmithErrorOptions = {}) {
    super("invalid_argument", "INVALID_ARGUMENT", message, options);
  }
}
