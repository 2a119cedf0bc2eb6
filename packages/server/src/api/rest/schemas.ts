import { MAX_ID_LENGTH } from "../input/index.js";

/** JSON schemas of the REST API; fastify validates requests and serialises responses with them. */
const taggedState = {
  type: "object",
  required: ["state"],
  properties: { state: { type: "string" } },
  additionalProperties: true,
} as const;

export const errorSchema = {
  $id: "Error",
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "status", "message"],
      properties: {
        code: { type: "string", description: "stable, machine-readable error code" },
        status: { type: "string" },
        message: { type: "string" },
        details: { type: "object", additionalProperties: true },
      },
    },
  },
} as const;

/** A handler outcome as stored with the object (and with each history row it ended). */
const outcomeSchema = {
  type: ["object", "null"],
  properties: {
    kind: { type: "string", enum: ["transition", "wait", "doNothing", "error", "deleted"] },
    reason: { type: "string" },
    error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } },
    at: { type: "string", format: "date-time" },
  },
} as const;

export const objectStateSchema = {
  $id: "ObjectState",
  type: "object",
  required: [
    "objectType",
    "objectId",
    "state",
    "stateLabel",
    "version",
    "enteredAt",
    "timeInStateMs",
    "sla",
    "outcome",
    "history",
  ],
  properties: {
    objectType: { type: "string" },
    objectId: { type: "string" },
    state: taggedState,
    stateLabel: { type: "string" },
    version: { type: "integer" },
    enteredAt: { type: "string", format: "date-time" },
    timeInStateMs: { type: "integer" },
    sla: {
      type: "object",
      required: ["slaMs", "aboveSla"],
      properties: { slaMs: { type: ["integer", "null"] }, aboveSla: { type: "boolean" } },
    },
    outcome: outcomeSchema,
    history: {
      type: "array",
      items: {
        type: "object",
        required: ["state", "version", "enteredAt"],
        properties: {
          state: taggedState,
          version: { type: "integer" },
          enteredAt: { type: "string", format: "date-time" },
          slaMs: { type: ["integer", "null"], description: "The SLA of that state; null: none" },
          exitOutcome: {
            ...outcomeSchema,
            description: "The last outcome recorded in that state when it was left; null while in it",
          },
        },
      },
    },
  },
} as const;

export const versionSchema = {
  $id: "Version",
  type: "object",
  required: ["coreVersion", "pluginApiVersion", "plugins", "database"],
  properties: {
    coreVersion: { type: "string" },
    pluginApiVersion: { type: "integer" },
    plugins: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "version"],
        properties: { name: { type: "string" }, version: { type: "string" } },
      },
    },
    database: { type: "string" },
  },
} as const;

export const objectParams = {
  type: "object",
  required: ["objectType", "objectId"],
  properties: {
    objectType: { type: "string", pattern: "^[a-z][a-z0-9-]*$", maxLength: 64 },
    objectId: { type: "string", minLength: 1, maxLength: 256 },
  },
} as const;

/** An id a request names (machine, instance, partition): a non-empty string of at most `MAX_ID_LENGTH`. */
export const idString = { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH } as const;

/** The `:id` path parameter of a feature's resource (machine, instance, partition). */
export const idParams = {
  type: "object",
  required: ["id"],
  properties: { id: idString },
} as const;

export const SHARED_SCHEMAS = [errorSchema, objectStateSchema, versionSchema] as const;
