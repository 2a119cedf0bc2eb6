/** Where the section lives in the operator's config file; every problem is reported under this prefix. */
export const CONFIG_SECTION = "fabrics.nvlink";

/** JSON Schema of `fabrics.nvlink` when it names this fabric (also handed to the core as `configSchema`). */
export const nmxmConfigSchema = {
  type: "object",
  additionalProperties: false,
  required: ["endpoint", "passwordFile"],
  properties: {
    // Selector keys the core may leave in the section; accepted so the section validates as a whole.
    enabled: { type: "boolean" },
    fabric: { type: "string", minLength: 1 },
    endpoint: { type: "string", minLength: 1, description: "NMX-M base URL with scheme and port" },
    username: { type: "string", minLength: 1 },
    usernameFile: { type: "string", minLength: 1 },
    passwordFile: { type: "string", minLength: 1 },
    caFile: { type: "string", minLength: 1 },
    allowInsecure: { type: "boolean", default: false },
    timeoutMs: { type: "integer", minimum: 100, maximum: 600_000, default: 30_000 },
    // NICo rejects NMX-M responses over 20 MB.
    maxResponseBytes: { type: "integer", minimum: 1024, default: 20 * 1024 * 1024 },
    monitorIntervalMs: { type: "integer", minimum: 100, default: 60_000 },
    operationTimeoutMs: { type: "integer", minimum: 10, default: 10_000 },
    operationPollMs: { type: "integer", minimum: 10, default: 500 },
  },
} as const;

export const CONFIG_KEYS: readonly string[] = Object.keys(nmxmConfigSchema.properties);

/** The section after validation, with defaults applied; secrets are still file paths here. */
export interface NmxmConfig {
  /** Without a trailing slash; API paths are appended as `{endpoint}/nmx/v1/...`. */
  endpoint: string;
  username?: string;
  usernameFile?: string;
  passwordFile: string;
  caFile?: string;
  allowInsecure: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  monitorIntervalMs: number;
  operationTimeoutMs: number;
  operationPollMs: number;
}
