import { formatSchemaErrors } from "@racksmith/core";
import {
  DEFAULT_INFINIBAND_QOS,
  InfiniBandFabricConfigError,
  type InfiniBandQos,
  MAX_PKEY,
  type PkeyRange,
} from "@racksmith/core/infiniband";
import { Ajv } from "ajv";
import { UFM_CONFIG_SCHEMA, type UfmAuthMode } from "./schema.js";

/** The checked `fabrics.infiniband` section, defaults applied. File paths are as written (see credentials). */
export interface UfmFabricConfig {
  endpoint: string;
  auth: UfmAuthMode;
  username?: string;
  passwordFile?: string;
  tokenFile?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  allowInsecure: boolean;
  timeoutMs: number;
  pkeyRanges: PkeyRange[];
  qos: InfiniBandQos;
  monitorIntervalMs: number;
}

export const UFM_CONFIG_KEY = "fabrics.infiniband";
export const UFM_FABRIC_NAME = "ufm";

/** The keys each auth mode needs; the others are refused so a half-switched config is noticed. */
const AUTH_KEYS: Readonly<Record<UfmAuthMode, readonly string[]>> = {
  token: ["tokenFile"],
  basic: ["username", "passwordFile"],
  mtls: ["certFile", "keyFile"],
};

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
const validate = ajv.compile(UFM_CONFIG_SCHEMA);

/** Checks the section; every problem is reported at once, each naming its key. Never reads a file. */
export function parseUfmFabricConfig(section: Readonly<Record<string, unknown>>): UfmFabricConfig {
  const copy = structuredClone(section) as Record<string, unknown>;
  if (!validate(copy)) {
    throw new InfiniBandFabricConfigError(
      UFM_FABRIC_NAME,
      // The core's wording, each key in full (`fabrics.infiniband.…`), ajv's own for type errors.
      formatSchemaErrors(validate.errors ?? [], () => [], { prefix: UFM_CONFIG_KEY, ajvMessages: ["type"] }),
    );
  }
  const config = copy as unknown as Omit<UfmFabricConfig, "pkeyRanges" | "qos"> & {
    pkeyRanges: Array<{ start: number | string; end: number | string }>;
    qos?: Partial<InfiniBandQos>;
  };
  const problems: string[] = [];
  checkEndpoint(config, problems);
  checkAuthKeys(config as unknown as Record<string, unknown>, config.auth, problems);
  const pkeyRanges = checkRanges(config.pkeyRanges, problems);
  if (problems.length) throw new InfiniBandFabricConfigError(UFM_FABRIC_NAME, problems);
  return { ...config, pkeyRanges, qos: { ...DEFAULT_INFINIBAND_QOS, ...config.qos } };
}

function checkEndpoint(config: { endpoint: string; auth: UfmAuthMode }, problems: string[]): void {
  let url: URL;
  try {
    url = new URL(config.endpoint);
  } catch {
    problems.push(`${UFM_CONFIG_KEY}.endpoint: ${JSON.stringify(config.endpoint)} is not a URL`);
    return;
  }
  // Credentials belong in files; a user:password in the URL would end up in logs.
  if (url.username || url.password)
    problems.push(`${UFM_CONFIG_KEY}.endpoint: must not contain credentials (use username/passwordFile)`);
  if (url.search || url.hash) problems.push(`${UFM_CONFIG_KEY}.endpoint: must not have a query or fragment`);
  if (config.auth === "mtls" && url.protocol !== "https:")
    problems.push(`${UFM_CONFIG_KEY}.endpoint: auth mtls needs an https:// endpoint`);
}

function checkAuthKeys(config: Record<string, unknown>, mode: UfmAuthMode, problems: string[]): void {
  for (const key of AUTH_KEYS[mode]) {
    if (config[key] === undefined) problems.push(`${UFM_CONFIG_KEY}: auth ${mode} needs ${key}`);
  }
  for (const [other, keys] of Object.entries(AUTH_KEYS)) {
    if (other === mode) continue;
    for (const key of keys) {
      if (config[key] !== undefined && !AUTH_KEYS[mode].includes(key))
        problems.push(`${UFM_CONFIG_KEY}.${key}: only used with auth ${other} (auth is ${mode})`);
    }
  }
}

/** Bounds are hex or decimal, the end exclusive (as in NICo); ranges may not overlap. */
function checkRanges(
  ranges: ReadonlyArray<{ start: number | string; end: number | string }>,
  problems: string[],
): PkeyRange[] {
  const parsed: Array<PkeyRange & { index: number }> = [];
  ranges.forEach((range, index) => {
    const at = `${UFM_CONFIG_KEY}.pkeyRanges[${index}]`;
    const start = bound(range.start, `${at}.start`, problems);
    const end = bound(range.end, `${at}.end`, problems);
    if (start === undefined || end === undefined) return;
    if (start < 1 || start >= MAX_PKEY) problems.push(`${at}.start: must be within 0x1..0x7ffe`);
    else if (end <= start) problems.push(`${at}.end: must be greater than start (the end is exclusive)`);
    // The default partition 0x7fff is never the core's to allocate.
    else if (end > MAX_PKEY) problems.push(`${at}.end: must be at most 0x7fff (exclusive)`);
    else {
      const overlap = parsed.find((other) => start < other.end && other.start < end);
      if (overlap) problems.push(`${at}: overlaps pkeyRanges[${overlap.index}]`);
      parsed.push({ start, end, index });
    }
  });
  return parsed.map(({ start, end }) => ({ start, end }));
}

function bound(value: number | string, at: string, problems: string[]): number | undefined {
  const text = String(value).trim();
  const parsed = /^0x[0-9a-f]+$/i.test(text)
    ? Number.parseInt(text.slice(2), 16)
    : /^\d+$/.test(text)
      ? Number.parseInt(text, 10)
      : Number.NaN;
  if (Number.isNaN(parsed)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not a pkey (0x-hex or decimal)`);
    return undefined;
  }
  return parsed;
}
