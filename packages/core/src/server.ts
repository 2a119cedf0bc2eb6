/**
 * `@racksmith/core/server` — what hosts Racksmith: config loading, the plugin host and loader, the database,
 * the state engine, the REST and gRPC APIs, and `startService` which runs them together.
 */
import "reflect-metadata";

export * from "./api/index.js";
export * from "./config/index.js";
export * from "./db/index.js";
export * from "./explorer/index.js";
export * from "./fabric/infiniband/tenant/index.js";
export { createNvLinkFeature, type NvLinkFeatureOptions, nvlinkFeature } from "./fabric/nvlink/feature.js";
export * from "./fabric/nvlink/tenant/index.js";
export * from "./health/monitor/index.js";
export * from "./health/service/index.js";
export * from "./inventory/index.js";
export * from "./lifecycle/index.js";
export * from "./plugins/index.js";
export * from "./service/index.js";
export * from "./state/index.js";
