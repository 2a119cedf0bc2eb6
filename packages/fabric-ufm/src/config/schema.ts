import { INFINIBAND_MTUS, INFINIBAND_RATE_LIMITS } from "@racksmith/core/infiniband";

/** How the client authenticates to UFM; the mode also picks the REST base path (see the client). */
export const UFM_AUTH_MODES = ["token", "basic", "mtls"] as const;
export type UfmAuthMode = (typeof UFM_AUTH_MODES)[number];

const pkeyBound = { type: ["integer", "string"], description: "0x-hex string or decimal" };

/**
 * JSON Schema of the `fabrics.infiniband` section. The core checks the section against it when the config
 * loads; `parseUfmFabricConfig` checks it again (plus what a schema cannot say) when the fabric is created.
 */
export const UFM_CONFIG_SCHEMA: Readonly<Record<string, unknown>> = {
  type: "object",
  additionalProperties: false,
  required: ["endpoint", "auth"],
  properties: {
    endpoint: {
      type: "string",
      pattern: "^https?://",
      description: "UFM base URL, e.g. https://ufm.example",
    },
    auth: { enum: [...UFM_AUTH_MODES] },
    username: { type: "string", minLength: 1 },
    passwordFile: { type: "string", minLength: 1 },
    tokenFile: { type: "string", minLength: 1 },
    certFile: { type: "string", minLength: 1 },
    keyFile: { type: "string", minLength: 1 },
    caFile: { type: "string", minLength: 1 },
    allowInsecure: { type: "boolean", default: false, description: "skip TLS certificate verification" },
    timeoutMs: { type: "integer", minimum: 100, maximum: 600_000, default: 10_000 },
    pkeyRanges: {
      type: "array",
      default: [],
      items: {
        type: "object",
        additionalProperties: false,
        required: ["start", "end"],
        properties: { start: pkeyBound, end: pkeyBound },
      },
    },
    qos: {
      type: "object",
      additionalProperties: false,
      properties: {
        mtu: { enum: [...INFINIBAND_MTUS] },
        rateLimit: { enum: [...INFINIBAND_RATE_LIMITS] },
        serviceLevel: { type: "integer", minimum: 0, maximum: 15 },
      },
    },
    monitorIntervalMs: { type: "integer", minimum: 1_000, default: 60_000 },
  },
};
