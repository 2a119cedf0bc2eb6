import { RacksmithError } from "../errors/index.js";

export class ObjectAlreadyExistsError extends RacksmithError {
  constructor(objectType: string, objectId: string) {
    super("state_object_exists", "ALREADY_EXISTS", `${objectType} ${objectId} already exists`, {
      details: { objectType, objectId },
    });
  }
}

export class ObjectNotFoundError extends RacksmithError {
  constructor(objectType: string, objectId: string) {
    super("state_object_not_found", "NOT_FOUND", `${objectType} ${objectId} does not exist`, {
      details: { objectType, objectId },
    });
  }
}

export class UnknownObjectTypeError extends RacksmithError {
  constructor(objectType: string, known: readonly string[]) {
    super(
      "state_unknown_object_type",
      "INVALID_ARGUMENT",
      `no state machine handles object type "${objectType}" (known: ${known.join(", ") || "none"})`,
      { details: { objectType, known: [...known] } },
    );
  }
}

/** The stored state has a tag the machine has no handler for (e.g. data written by a newer version). */
export class UnknownStateError extends RacksmithError {
  constructor(objectType: string, state: string) {
    super("state_unknown", "FAILED_PRECONDITION", `${objectType} has no handler for state "${state}"`, {
      details: { objectType, state },
    });
  }
}

/** The machine's `load` found no object for a state row: recorded as the outcome, the state is kept. */
export class ObjectNotLoadedError extends RacksmithError {
  constructor(objectType: string, objectId: string) {
    super(
      "state_object_missing",
      "FAILED_PRECONDITION",
      `${objectType} ${objectId} has a state but its machine could not load it`,
      { details: { objectType, objectId } },
    );
  }
}

/** A handler ran past `handlerTimeoutMs`; its result is discarded (this code labels the error metric). */
export class HandlerTimeoutError extends RacksmithError {
  constructor(objectType: string, objectId: string, state: string, timeoutMs: number) {
    super(
      "handler_timeout",
      "DEADLINE_EXCEEDED",
      `${objectType} ${objectId}: handler for state ${state} ran past ${timeoutMs} ms`,
      { details: { objectType, objectId, state, timeoutMs } },
    );
  }
}

/** A handler returned something that is not an outcome built by transition/wait/doNothing/deleted. */
export class InvalidOutcomeError extends RacksmithError {
  constructor(objectType: string, state: string, problem: string) {
    super("state_invalid_outcome", "INTERNAL", `${objectType} handler for state ${state} ${problem}`, {
      details: { objectType, state },
    });
  }
}
