import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** The running `@racksmith/core` version (plugins' peer ranges are checked against it). */
export const CORE_VERSION: string = manifest.version;

/** Major of the plugin API this core provides; a plugin declares the one it was built for. */
export const PLUGIN_API_VERSION = 1;
