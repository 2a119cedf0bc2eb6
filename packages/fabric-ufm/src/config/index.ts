export { readUfmCredentials, type UfmCredentials } from "./credentials.js";
export { parseUfmFabricConfig, UFM_CONFIG_KEY, type UfmFabricConfig } from "./parse.js";
export { UFM_AUTH_MODES, UFM_CONFIG_SCHEMA, type UfmAuthMode } from "./schema.js";
