/*
 * The InfiniBand tenant side (server only, exported from `@racksmith/server`): partitions on the state
 * engine, the pkey pool, the instance fabric, the fabric monitor and the APIs.
 */

export { createInfinibandFeature, infinibandFeature } from "../feature.js";
export * from "./api/index.js";
export {
  IbPartitionInUseError,
  IbPartitionNotFoundError,
  InfiniBandNotConfiguredError,
  PkeyPoolExhaustedError,
  PkeyTakenError,
  TooManyIbPartitionsError,
} from "./errors.js";
export * from "./hosts/index.js";
export { type InfiniBandInstanceFabricDeps, infinibandInstanceFabric } from "./instanceFabric.js";
export * from "./monitor/index.js";
export * from "./partitions/index.js";
export * from "./pool/index.js";
export { type InfiniBandTenantSettings, splitInfiniBandSection } from "./settings.js";
export type { IbFabricHealthTable, IbHostObservationsTable, IbPartitionsTable } from "./tables.js";
