import { Ajv, type SchemaObject } from "ajv";
import { InvalidArgumentError } from "../errors/index.js";

export interface EngineConfig {
  /** Every object is re-run this often (one replica enqueues them all), plus jitter in [0, T/3). */
  iterationIntervalMs: number;
  /**
   * A run that ends waiting is re-run after this long even if nothing enqueues it (a handler's own
   * `wait(reason, { recheckAfterMs })` wins); 0: at the next periodic run. Lets a large site keep a long
   * iteration interval for steady objects while objects in the middle of their lifecycle are looked at soon.
   */
  waitRecheckMs: number;
  /**
   * Each periodic batch (after the first, at start) makes every object due at a random time within this long,
   * so a large site's periodic runs come steadily; default `iterationIntervalMs`, 0: all at once.
   */
  iterationSpreadMs?: number;
  /** Workers look for due rows this often when no NOTIFY arrives (a fallback: NOTIFY wakes them at once). */
  pollIntervalMs: number;
  /** Handlers running at once, per object type, per process. */
  concurrency: number;
  /** A handler still running after this is aborted and its result discarded. */
  handlerTimeoutMs: number;
  /**
   * How long a claim lasts unless renewed: a replica that dies loses its claims this long after its last
   * heartbeat. A live replica renews the claims of its running handlers every `heartbeatMs`.
   */
  leaseMs: number;
  /** How often a replica renews the leases of its running handlers; default leaseMs / 3. */
  heartbeatMs?: number;
  /** History rows kept per object (one per state entered; trimmed every 8th version, so up to 7 more). */
  historyLimit: number;
  /** Default bound of `stop()`: how long in-flight handlers may finish before they are abandoned. */
  shutdownGraceMs: number;
}

export type ResolvedEngineConfig = Required<EngineConfig>;

export const DEFAULT_ENGINE_CONFIG: Readonly<EngineConfig> = Object.freeze({
  iterationIntervalMs: 30_000,
  waitRecheckMs: 0,
  pollIntervalMs: 1_000,
  concurrency: 10,
  handlerTimeoutMs: 180_000,
  leaseMs: 15_000,
  historyLimit: 250,
  shutdownGraceMs: 10_000,
});

const HEARTBEATS_PER_LEASE = 3;

const integer = (minimum: number, description: string, extra: Record<string, number> = {}): SchemaObject => ({
  type: "integer",
  minimum,
  description,
  ...extra,
});

/** JSON schema of the `engine` config section: every key optional, unknown keys rejected. */
export const ENGINE_CONFIG_SCHEMA: SchemaObject = {
  type: "object",
  additionalProperties: false,
  description: "State engine scheduling and limits.",
  properties: {
    iterationIntervalMs: integer(10, "Periodic re-run of every object (ms), with jitter in [0, T/3).", {
      default: DEFAULT_ENGINE_CONFIG.iterationIntervalMs,
    }),
    waitRecheckMs: integer(
      0,
      "A waiting object is re-run after this long even if nothing enqueues it (ms); 0: at the next periodic run.",
      { default: DEFAULT_ENGINE_CONFIG.waitRecheckMs },
    ),
    iterationSpreadMs: integer(
      0,
      "Each periodic batch makes every object due at a random time within this long (ms); default iterationIntervalMs, 0: all at once.",
    ),
    pollIntervalMs: integer(10, "Fallback poll for due work when no NOTIFY arrives (ms).", {
      default: DEFAULT_ENGINE_CONFIG.pollIntervalMs,
    }),
    concurrency: integer(1, "Handlers running at once per object type per process.", {
      maximum: 10_000,
      default: DEFAULT_ENGINE_CONFIG.concurrency,
    }),
    handlerTimeoutMs: integer(1, "A handler running longer is aborted and persists nothing (ms).", {
      default: DEFAULT_ENGINE_CONFIG.handlerTimeoutMs,
    }),
    leaseMs: integer(
      10,
      "Claim lease (ms): a dead replica's claims are taken over this long after its last heartbeat.",
      {
        default: DEFAULT_ENGINE_CONFIG.leaseMs,
      },
    ),
    heartbeatMs: integer(
      5,
      "How often a replica renews its running handlers' leases (ms); default leaseMs / 3, at most leaseMs / 2.",
    ),
    historyLimit: integer(
      1,
      "History rows kept per object (up to 7 more between trims, every 8th version).",
      {
        default: DEFAULT_ENGINE_CONFIG.historyLimit,
      },
    ),
    shutdownGraceMs: integer(0, "How long stop() lets in-flight handlers finish (ms).", {
      default: DEFAULT_ENGINE_CONFIG.shutdownGraceMs,
    }),
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile<Partial<EngineConfig>>(
  ENGINE_CONFIG_SCHEMA,
);

/** Fills in the defaults and checks the values; throws InvalidArgumentError naming every bad key. */
export function resolveEngineConfig(config: Partial<EngineConfig> = {}): ResolvedEngineConfig {
  // Keys explicitly set to undefined mean "use the default", as for an absent key.
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  if (!validate(given)) {
    const problems = (validate.errors ?? []).map((e) =>
      e.keyword === "additionalProperties"
        ? `engine.${String(e.params.additionalProperty)} is not a known key`
        : `engine${e.instancePath.replace(/\//g, ".")} ${e.message}`,
    );
    throw new InvalidArgumentError(`invalid engine config: ${problems.join("; ")}`);
  }
  const merged = { ...DEFAULT_ENGINE_CONFIG, ...given };
  const resolved = {
    ...merged,
    heartbeatMs: merged.heartbeatMs ?? Math.max(1, Math.floor(merged.leaseMs / HEARTBEATS_PER_LEASE)),
    iterationSpreadMs: merged.iterationSpreadMs ?? merged.iterationIntervalMs,
  };
  if (resolved.heartbeatMs * 2 > resolved.leaseMs) {
    throw new InvalidArgumentError(
      `invalid engine config: engine.heartbeatMs (${resolved.heartbeatMs}) must be at most half of engine.leaseMs (${resolved.leaseMs}), or one late heartbeat would let a live handler's claim be taken over`,
    );
  }
  return resolved;
}
