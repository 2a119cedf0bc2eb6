import { InvalidArgumentError } from "@racksmith/core";
import { Ajv, type SchemaObject } from "ajv";
// Not config/index.ts: it loads config/schema.ts, which loads this file.
import { sectionSchemaProblems } from "../config/sectionProblems.js";

/**
 * The `siteExplorer` config section as written. Everything is optional; code reads it through
 * `resolveSiteExplorerConfig`, which applies the defaults.
 */
export interface SiteExplorerConfig {
  enabled?: boolean;
  intervalMs?: number;
  newEndpointDelayMs?: number;
  budget?: number;
  concurrency?: number;
  maxIngestionsPerRun?: number;
  rotateCredentials?: boolean;
  allowZeroDpuHosts?: boolean;
  bluefieldPartNumbers?: string[];
  bmcProxy?: string;
  bmc?: {
    scheme?: "https" | "http";
    port?: number;
    insecureTls?: boolean;
    caFile?: string;
    auth?: "basic" | "session";
    maxConcurrency?: number;
    connectTimeoutMs?: number;
    requestTimeoutMs?: number;
    explorationTimeoutMs?: number;
  };
  lockout?: { maxAuthFailures?: number; windowMs?: number };
  powerOn?: { enabled?: boolean; retryAfterMs?: number };
}

/** Every setting with its default applied (`caFile` still relative to the config file). */
export interface ResolvedSiteExplorerConfig {
  enabled: boolean;
  intervalMs: number;
  newEndpointDelayMs: number;
  budget: number;
  concurrency: number;
  maxIngestionsPerRun: number;
  rotateCredentials: boolean;
  allowZeroDpuHosts: boolean;
  bluefieldPartNumbers: string[];
  bmcProxy: string | undefined;
  bmc: {
    scheme: "https" | "http";
    port: number | undefined;
    insecureTls: boolean;
    caFile: string | undefined;
    auth: "basic" | "session";
    maxConcurrency: number;
    connectTimeoutMs: number;
    requestTimeoutMs: number;
    explorationTimeoutMs: number;
  };
  lockout: { maxAuthFailures: number; windowMs: number };
  powerOn: { enabled: boolean; retryAfterMs: number };
}

export const DEFAULT_SITE_EXPLORER_CONFIG: Readonly<ResolvedSiteExplorerConfig> =
  Object.freeze<ResolvedSiteExplorerConfig>({
    enabled: true,
    intervalMs: 120_000,
    newEndpointDelayMs: 5_000,
    budget: 90,
    concurrency: 30,
    maxIngestionsPerRun: 4,
    rotateCredentials: true,
    allowZeroDpuHosts: false,
    bluefieldPartNumbers: [],
    bmcProxy: undefined,
    bmc: {
      scheme: "https",
      port: undefined,
      insecureTls: false,
      caFile: undefined,
      auth: "basic",
      maxConcurrency: 4,
      connectTimeoutMs: 5_000,
      requestTimeoutMs: 20_000,
      explorationTimeoutMs: 120_000,
    },
    lockout: { maxAuthFailures: 3, windowMs: 900_000 },
    powerOn: { enabled: true, retryAfterMs: 3_600_000 },
  });

const D = DEFAULT_SITE_EXPLORER_CONFIG;
// Defaults are stated in the descriptions, not as schema `default`s: the loader leaves the section as written
// (so a parsed empty file equals DEFAULT_CONFIG) and `resolveSiteExplorerConfig` applies them.
const integer = (minimum: number, description: string, value: number): SchemaObject => ({
  type: "integer",
  minimum,
  description: `${description} Default ${value}.`,
});
const flag = (description: string, value: boolean): SchemaObject => ({
  type: "boolean",
  description: `${description} Default ${value}.`,
});
const choice = (values: readonly string[], description: string, value: string): SchemaObject => ({
  type: "string",
  enum: [...values],
  description: `${description} Default ${value}.`,
});

/** The `siteExplorer` config section; every key documented with a default. */
export const SITE_EXPLORER_CONFIG_SCHEMA: SchemaObject = {
  description: "How BMCs are explored, paired and ingested.",
  type: "object",
  additionalProperties: false,
  default: {},
  properties: {
    enabled: flag("Run the periodic exploration loop (the APIs work either way).", D.enabled),
    intervalMs: integer(10, "Time between exploration runs (ms), plus jitter in [0, T/3).", D.intervalMs),
    newEndpointDelayMs: integer(
      0,
      "Wait (ms) between the inventory announcing new BMC endpoints and the run exploring them; announcements meanwhile join that run.",
      D.newEndpointDelayMs,
    ),
    budget: integer(1, "Endpoints explored per run, by priority.", D.budget),
    concurrency: integer(
      1,
      "Endpoints explored at once (each BMC keeps its own request cap).",
      D.concurrency,
    ),
    maxIngestionsPerRun: integer(0, "New managed hosts created per run.", D.maxIngestionsPerRun),
    rotateCredentials: flag(
      "Change a BMC's factory password to the site BMC root password on first contact.",
      D.rotateCredentials,
    ),
    allowZeroDpuHosts: flag(
      "Ingest a host expected in DPU mode whose BlueFields are all in NIC mode (or absent).",
      D.allowZeroDpuHosts,
    ),
    bluefieldPartNumbers: {
      description:
        "Extra part-number prefixes that identify a BlueField card, next to the built-in ones (default none).",
      type: "array",
      items: { type: "string", minLength: 3 },
    },
    bmcProxy: {
      description:
        "Dial every BMC through this host:port (a BMC proxy or a fleet of virtual BMCs), naming the BMC in `Forwarded: host=` (default: dial BMCs directly).",
      type: "string",
      minLength: 1,
    },
    bmc: {
      description: "How BMCs are reached (each key has a default).",
      type: "object",
      additionalProperties: false,
      properties: {
        scheme: choice(["https", "http"], "Scheme of BMC URLs built from bare addresses.", D.bmc.scheme),
        port: {
          type: "integer",
          minimum: 1,
          maximum: 65_535,
          description: "Port for addresses that name none (default: the scheme's).",
        },
        insecureTls: flag(
          "Accept any BMC certificate (self-signed factory certificates); prefer caFile.",
          D.bmc.insecureTls,
        ),
        caFile: {
          description:
            "PEM bundle BMC certificates must chain to, relative to the config file (default: the system CAs).",
          type: "string",
          minLength: 1,
        },
        auth: choice(
          ["basic", "session"],
          "Basic authentication on every request, or a Redfish session per exploration.",
          D.bmc.auth,
        ),
        maxConcurrency: integer(1, "Requests in flight to one BMC.", D.bmc.maxConcurrency),
        connectTimeoutMs: integer(1, "TCP/TLS connect timeout (ms).", D.bmc.connectTimeoutMs),
        requestTimeoutMs: integer(1, "Timeout of one Redfish request (ms).", D.bmc.requestTimeoutMs),
        explorationTimeoutMs: integer(
          1,
          "Deadline of one whole exploration or power-on of a BMC (probe, logins, rotation, the driver's explore) in ms: past it, its requests are aborted and it fails with `timeout`. At least requestTimeoutMs.",
          D.bmc.explorationTimeoutMs,
        ),
      },
    },
    lockout: {
      description:
        "Stop logging in to a BMC after repeated authentication failures (each key has a default).",
      type: "object",
      additionalProperties: false,
      properties: {
        maxAuthFailures: integer(
          1,
          "Consecutive failed logins before a BMC is left alone (avoid_lockout).",
          D.lockout.maxAuthFailures,
        ),
        windowMs: integer(1, "How long a BMC is left alone after that (ms).", D.lockout.windowMs),
      },
    },
    powerOn: {
      description: "Powering on expected hosts found off (each key has a default).",
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: flag("Power on an expected host that is off so that it can be ingested.", D.powerOn.enabled),
        retryAfterMs: integer(
          1,
          "At most one power-on per host in this period (ms).",
          D.powerOn.retryAfterMs,
        ),
      },
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<SiteExplorerConfig>(
  SITE_EXPLORER_CONFIG_SCHEMA,
);

/** Every problem of the section, each naming its key; empty when `resolveSiteExplorerConfig` accepts it. */
export function siteExplorerConfigProblems(config: SiteExplorerConfig = {}): string[] {
  if (!validate(config)) return sectionSchemaProblems("siteExplorer", validate.errors);
  const bmc = { ...D.bmc, ...definedOnly(config.bmc ?? {}) };
  if (bmc.explorationTimeoutMs < bmc.requestTimeoutMs) {
    const given = (key: keyof NonNullable<SiteExplorerConfig["bmc"]>) =>
      config.bmc?.[key] === undefined ? ", the default" : "";
    return [
      `siteExplorer.bmc.explorationTimeoutMs (${bmc.explorationTimeoutMs}${given("explorationTimeoutMs")}) must be at least siteExplorer.bmc.requestTimeoutMs (${bmc.requestTimeoutMs}${given("requestTimeoutMs")}): one exploration makes many requests`,
    ];
  }
  return [];
}

/** Fills in the defaults and checks the values; throws InvalidArgumentError naming every bad key. */
export function resolveSiteExplorerConfig(config: SiteExplorerConfig = {}): ResolvedSiteExplorerConfig {
  const problems = siteExplorerConfigProblems(config);
  if (problems.length > 0)
    throw new InvalidArgumentError(`invalid site explorer config: ${problems.join("; ")}`);
  const bmc = { ...D.bmc, ...definedOnly(config.bmc ?? {}) };
  return {
    enabled: config.enabled ?? D.enabled,
    intervalMs: config.intervalMs ?? D.intervalMs,
    newEndpointDelayMs: config.newEndpointDelayMs ?? D.newEndpointDelayMs,
    budget: config.budget ?? D.budget,
    concurrency: config.concurrency ?? D.concurrency,
    maxIngestionsPerRun: config.maxIngestionsPerRun ?? D.maxIngestionsPerRun,
    rotateCredentials: config.rotateCredentials ?? D.rotateCredentials,
    allowZeroDpuHosts: config.allowZeroDpuHosts ?? D.allowZeroDpuHosts,
    bluefieldPartNumbers: config.bluefieldPartNumbers ?? [],
    bmcProxy: config.bmcProxy,
    bmc,
    lockout: { ...D.lockout, ...definedOnly(config.lockout ?? {}) },
    powerOn: { ...D.powerOn, ...definedOnly(config.powerOn ?? {}) },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
