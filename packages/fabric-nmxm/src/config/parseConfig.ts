import { Ajv, type ErrorObject } from "ajv";
import { NmxmConfigError } from "./errors.js";
import { CONFIG_KEYS, CONFIG_SECTION, type NmxmConfig, nmxmConfigSchema } from "./schema.js";

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
const validate = ajv.compile(nmxmConfigSchema);

/** Checks the section and applies defaults; throws `NmxmConfigError` listing every problem by key. */
export function parseNmxmConfig(section: Readonly<Record<string, unknown>>): NmxmConfig {
  const copy = structuredClone(section) as Record<string, unknown>;
  const problems: string[] = [];
  if (!validate(copy)) problems.push(...(validate.errors ?? []).map(describe));
  if (problems.length === 0) problems.push(...semanticProblems(copy));
  if (problems.length) throw new NmxmConfigError([...new Set(problems)]);
  const config = copy as unknown as NmxmConfig;
  return { ...config, endpoint: config.endpoint.replace(/\/+$/, "") };
}

function semanticProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const endpoint = String(config.endpoint);
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {
    problems.push(
      `${CONFIG_SECTION}.endpoint: must be a URL with scheme and port (https://nmxm.example:4010)`,
    );
  }
  if (url && url.protocol !== "https:" && url.protocol !== "http:")
    problems.push(`${CONFIG_SECTION}.endpoint: scheme must be https or http, not ${url.protocol}`);
  // Never echo the URL itself here: it may carry the very password we refuse.
  if (url && (url.username || url.password))
    problems.push(`${CONFIG_SECTION}.endpoint: must not contain credentials; use username and passwordFile`);
  if (config.username === undefined && config.usernameFile === undefined)
    problems.push(`${CONFIG_SECTION}: missing required key username (or usernameFile)`);
  if (config.username !== undefined && config.usernameFile !== undefined)
    problems.push(`${CONFIG_SECTION}: give only one of username and usernameFile`);
  if (config.caFile !== undefined && config.allowInsecure === true)
    problems.push(`${CONFIG_SECTION}: caFile and allowInsecure contradict each other; keep one`);
  return problems;
}

function describe(error: ErrorObject): string {
  const key = error.instancePath
    ? `${CONFIG_SECTION}.${error.instancePath.slice(1).replace(/\//g, ".")}`
    : CONFIG_SECTION;
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown key ${CONFIG_SECTION}.${String(error.params.additionalProperty)}; allowed: ${CONFIG_KEYS.join(", ")}`;
    case "required":
      return `${key}: missing required key ${String(error.params.missingProperty)}`;
    case "type":
      return `${key}: must be ${error.params.type === "integer" ? "an integer" : `a ${String(error.params.type)}`}`;
    default:
      return `${key}: ${error.message ?? "is invalid"}`;
  }
}
