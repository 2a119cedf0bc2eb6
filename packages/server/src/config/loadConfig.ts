import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { formatSchemaErrors } from "@racksmith/core";
import { Ajv } from "ajv";
import { parseDocument } from "yaml";
import { allowedKeysAt } from "./allowedKeys.js";
import { ConfigError } from "./errors.js";
import { configSchema, DEFAULT_CONFIG, type RacksmithConfig } from "./schema.js";

export const CONFIG_FILE_NAMES = ["racksmith.yaml", "racksmith.yml", "racksmith.json"];

export interface LoadedConfig {
  config: RacksmithConfig;
  /** Absolute path of the file read, or undefined when the defaults are used. */
  file: string | undefined;
  /** Directory plugin paths are relative to. */
  baseDir: string;
}

// verbose: errors carry their schema, so a pattern error can show the key's `examples`.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, verbose: true });
const validate = ajv.compile<RacksmithConfig>(configSchema);

/**
 * Reads the config: the given file, else the first `racksmith.yaml|yml|json` in `cwd`, else the defaults.
 * YAML and JSON are both accepted. Every problem is reported at once, each naming its key path.
 */
export function loadConfig(options: { file?: string; cwd?: string } = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const file = options.file
    ? resolve(cwd, options.file)
    : CONFIG_FILE_NAMES.map((n) => resolve(cwd, n)).find(existsSync);
  if (!file) return { config: structuredClone(DEFAULT_CONFIG), file: undefined, baseDir: cwd };
  if (!existsSync(file)) throw new ConfigError(file, ["file not found"]);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, [`cannot read: ${(error as Error).message}`]);
  }
  return { config: parseConfig(text, file), file, baseDir: dirname(file) };
}

/** Parses and validates config text (YAML is a superset of JSON, so one parser serves both). */
export function parseConfig(text: string, file = "racksmith.yaml"): RacksmithConfig {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      file,
      document.errors.map((e) => {
        const summary = (e.message.split("\n")[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, "");
        return `line ${e.linePos?.[0]?.line ?? "?"}: ${summary}`;
      }),
    );
  }
  const data: unknown = document.toJS() ?? {};
  if (!validate(data)) {
    throw new ConfigError(
      file,
      formatSchemaErrors(validate.errors ?? [], (path) =>
        allowedKeysAt(configSchema, path).filter((key) => key !== "$schema"),
      ),
    );
  }
  return data;
}
