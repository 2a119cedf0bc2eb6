import type { SchemaObject } from "ajv";
import { ANOMALY_KINDS } from "./types.js";

const NAME = { type: "string", minLength: 1 };

const MOCKUP_SOURCE = {
  vendor: { ...NAME, pattern: "^[a-z0-9][a-z0-9_-]*$" },
  model: NAME,
  package: NAME,
  mockup: NAME,
  driver: NAME,
  behaviors: { type: "boolean" },
};

const ANOMALY = {
  type: ["integer", "object"],
  minimum: 0,
  additionalProperties: false,
  required: ["count"],
  properties: {
    count: { type: "integer", minimum: 0 },
    target: { enum: ["host", "dpu"] },
    latencyMs: { type: "integer", minimum: 0 },
  },
};

/** The scenario file's schema; ajv checks it and every error names the key. */
export const FLEET_SCENARIO_SCHEMA: SchemaObject = {
  type: "object",
  additionalProperties: false,
  required: ["hosts"],
  properties: {
    seed: { type: ["integer", "string"] },
    addressPool: { type: "string", pattern: "^\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}$" },
    lockout: {
      type: "object",
      additionalProperties: false,
      required: ["threshold"],
      properties: {
        threshold: { type: "integer", minimum: 1 },
        durationMs: { type: "integer", minimum: 0 },
      },
    },
    credentials: {
      type: "object",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: ["username"],
        properties: {
          username: NAME,
          password: NAME,
          passwordChangeRequired: { type: "boolean" },
        },
      },
    },
    hosts: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["vendor"],
        properties: {
          ...MOCKUP_SOURCE,
          count: { type: "integer", minimum: 1 },
          dpu: {
            type: "object",
            additionalProperties: false,
            properties: { ...MOCKUP_SOURCE, count: { type: "integer", minimum: 1 } },
          },
          dpuMode: { enum: ["dpu", "nic", "no-dpu"] },
          labels: { type: "object", additionalProperties: { type: "string" } },
          skuId: NAME,
          pinDriver: { type: "boolean" },
        },
      },
    },
    anomalies: {
      type: "object",
      additionalProperties: false,
      properties: Object.fromEntries(ANOMALY_KINDS.map((kind) => [kind, ANOMALY])),
    },
  },
};
