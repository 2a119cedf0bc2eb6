/**
 * `@racksmith/core/server` — what hosts Racksmith: config loading and the plugin host/loader. The service
 * itself (engine, database, APIs) joins this entry point.
 */
import "reflect-metadata";

export * from "./config/index.js";
export * from "./plugins/index.js";
