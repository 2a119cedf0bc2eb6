import type { BmcDriverDefinition } from "@racksmith/core";
import { formatSchemaErrors } from "@racksmith/core";
import { Ajv } from "ajv";
import { ConfigError } from "../config/errors.js";

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });

/**
 * Checks `drivers.<name>` sections against the loaded drivers: each must name a loaded driver and match that
 * driver's `settingsSchema`. Every problem is reported at once, with its full key path.
 */
export function checkDriverSettings(
  sections: Readonly<Record<string, Record<string, unknown>>>,
  drivers: readonly BmcDriverDefinition[],
  file: string,
): Map<string, Record<string, unknown>> {
  const problems: string[] = [];
  const settings = new Map<string, Record<string, unknown>>();
  for (const [name, section] of Object.entries(sections)) {
    const driver = drivers.find((candidate) => candidate.name === name);
    if (!driver) {
      problems.push(
        `drivers.${name}: no driver named ${name} is loaded (loaded: ${drivers.map((d) => d.name).join(", ")})`,
      );
      continue;
    }
    const copy = structuredClone(section);
    if (driver.settingsSchema) {
      const validate = ajv.compile(driver.settingsSchema);
      if (!validate(copy)) {
        const prefix = (line: string): string =>
          line.startsWith("unknown key ")
            ? line.replace("unknown key ", `unknown key drivers.${name}.`)
            : `drivers.${name}.${line}`;
        problems.push(
          ...formatSchemaErrors(validate.errors ?? [], () =>
            Object.keys(driver.settingsSchema?.properties ?? {}),
          ).map(prefix),
        );
      }
    } else if (Object.keys(copy).length > 0) {
      problems.push(`drivers.${name}: driver ${name} takes no settings`);
    }
    settings.set(name, copy);
  }
  if (problems.length) throw new ConfigError(file, problems);
  return settings;
}
