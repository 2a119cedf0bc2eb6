export { type NmxmConnectionSettings, readConnectionSettings } from "./credentials.js";
export { NmxmConfigError } from "./errors.js";
export { parseNmxmConfig } from "./parseConfig.js";
export { CONFIG_SECTION, type NmxmConfig, nmxmConfigSchema } from "./schema.js";
