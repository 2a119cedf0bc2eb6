export {
  DEFAULT_ENGINE_CONFIG,
  ENGINE_CONFIG_SCHEMA,
  type EngineConfig,
  type ResolvedEngineConfig,
  resolveEngineConfig,
} from "./config.js";
export { defineStateMachine, type StateHandler, type StateMachineDefinition } from "./defineStateMachine.js";
export { StateEngine, type StateEngineOptions } from "./engine.js";
export {
  HandlerTimeoutError,
  InvalidOutcomeError,
  ObjectAlreadyExistsError,
  ObjectNotFoundError,
  ObjectNotLoadedError,
  UnknownObjectTypeError,
  UnknownStateError,
} from "./errors.js";
export { deleted, doNothing, transition, wait } from "./outcomes.js";
export type {
  DeferredWrite,
  HandlerContext,
  HandlerInput,
  ObjectStateView,
  Outcome,
  OutcomeKind,
  StateMachine,
  StoredOutcome,
  TaggedState,
} from "./types.js";
export { tryAcquireWorkLock } from "./workLock.js";
