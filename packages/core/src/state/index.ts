export {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  type MetricLabels,
  type MetricSpec,
  type Metrics,
  noMetrics,
} from "../metrics/index.js";
export {
  DEFAULT_ENGINE_CONFIG,
  ENGINE_CONFIG_SCHEMA,
  type EngineConfig,
  type ResolvedEngineConfig,
  resolveEngineConfig,
} from "./config.js";
export {
  channelName,
  type EngineDatabase,
  type EngineTables,
  type JsonColumn,
  type JsonObject,
  type JsonValue,
  type StateHistoryTable,
  type StateObjectsTable,
  type StateQueueTable,
  type Timestamp,
  type WorkLocksTable,
} from "./database.js";
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
  HistoryEntryView,
  ObjectStateView,
  Outcome,
  OutcomeKind,
  StateMachine,
  StoredOutcome,
  TaggedState,
} from "./types.js";
export { tryAcquireWorkLock } from "./workLock.js";
