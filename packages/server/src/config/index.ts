export { keyPath } from "@racksmith/core";
export { ConfigError } from "./errors.js";
export { CONFIG_FILE_NAMES, type LoadedConfig, loadConfig, parseConfig } from "./loadConfig.js";
export { pluginSchemaProblems } from "./pluginSchemaProblems.js";
export { configSchema, DEFAULT_CONFIG, LOG_LEVELS, type LogLevel, type RacksmithConfig } from "./schema.js";
