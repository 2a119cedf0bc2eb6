import { formatSchemaErrors } from "@racksmith/core";
import { Ajv } from "ajv";
import { ConfigError } from "../config/errors.js";

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });

/** A registered thing an operator may configure by name: a BMC driver, a health probe. */
export interface ConfigurableDefinition {
  readonly name: string;
  /** JSON Schema of its section; without one it takes no settings. */
  readonly settingsSchema?: Readonly<Record<string, unknown>>;
}

/** The config section of one kind of definition: `drivers` holds driver settings, `healthProbes` probe ones. */
export interface SettingsSection {
  readonly key: "drivers" | "healthProbes";
  /** What a definition is called in a problem ("driver", "health probe"). */
  readonly noun: string;
}

export const DRIVER_SETTINGS: SettingsSection = { key: "drivers", noun: "driver" };
export const HEALTH_PROBE_SETTINGS: SettingsSection = { key: "healthProbes", noun: "health probe" };

/**
 * Checks `<section>.<name>` entries against the loaded definitions: each must name a loaded one and match its
 * `settingsSchema` (defaults filled in). Every problem is reported at once, with its full key path.
 */
export function checkPluginSettings(
  section: SettingsSection,
  entries: Readonly<Record<string, Record<string, unknown>>>,
  definitions: readonly ConfigurableDefinition[],
  file: string,
): Map<string, Record<string, unknown>> {
  const problems: string[] = [];
  const settings = new Map<string, Record<string, unknown>>();
  const { key, noun } = section;
  for (const [name, entry] of Object.entries(entries)) {
    const definition = definitions.find((candidate) => candidate.name === name);
    if (!definition) {
      const loaded = definitions.map((d) => d.name);
      problems.push(
        `${key}.${name}: no ${noun} named ${name} is loaded (loaded: ${loaded.length ? loaded.join(", ") : "none"})`,
      );
      continue;
    }
    const copy = structuredClone(entry);
    const schema = definition.settingsSchema;
    if (schema) {
      const validate = ajv.compile(schema);
      if (!validate(copy)) {
        const prefix = (line: string): string =>
          line.startsWith("unknown key ")
            ? line.replace("unknown key ", `unknown key ${key}.${name}.`)
            : `${key}.${name}.${line}`;
        problems.push(
          ...formatSchemaErrors(validate.errors ?? [], () =>
            Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}),
          ).map(prefix),
        );
      }
    } else if (Object.keys(copy).length > 0) {
      problems.push(`${key}.${name}: ${noun} ${name} takes no settings`);
    }
    settings.set(name, copy);
  }
  if (problems.length) throw new ConfigError(file, problems);
  return settings;
}
