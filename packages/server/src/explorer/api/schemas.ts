import { MAX_ADDRESS_LENGTH } from "../../api/index.js";

/** JSON schemas of the explorer's REST API (responses are serialised with them: every field is listed). */
const nullableString = { type: ["string", "null"] } as const;

export const endpointErrorSchema = {
  type: ["object", "null"],
  required: ["code", "message"],
  properties: {
    code: {
      type: "string",
      description: "unreachable, timeout, unauthorized, missing_credentials, redfish_error, …",
    },
    message: { type: "string" },
    httpStatus: { type: "integer" },
    bodyExcerpt: { type: "string" },
  },
} as const;

const findingSchema = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string" },
    message: { type: "string" },
    details: { type: "object", additionalProperties: true },
  },
} as const;

const summaryProperties = {
  address: { type: "string" },
  bmcMac: nullableString,
  vendor: nullableString,
  driver: nullableString,
  lastError: endpointErrorSchema,
  reportVersion: { type: "integer" },
  lastExploredAt: { type: ["string", "null"], format: "date-time" },
  latencyMs: { type: ["integer", "null"] },
  explorationRequested: { type: "boolean" },
  findings: { type: "array", items: findingSchema },
} as const;

/** A free-form ExplorationReport (its shape is the drivers' contract, documented in the core README). */
const reportSchema = { type: ["object", "null"], additionalProperties: true } as const;

export const endpointSummarySchema = {
  type: "object",
  required: Object.keys(summaryProperties),
  properties: summaryProperties,
} as const;

export const endpointDetailSchema = {
  type: "object",
  required: [...Object.keys(summaryProperties), "report"],
  properties: { ...summaryProperties, report: reportSchema },
} as const;

export const exploreNowSchema = {
  type: "object",
  required: ["address", "report", "error", "latencyMs"],
  properties: {
    address: { type: "string" },
    report: reportSchema,
    error: endpointErrorSchema,
    latencyMs: { type: "integer" },
  },
} as const;

export const managedHostSchema = {
  type: "object",
  properties: {
    hostAddress: { type: "string" },
    status: { type: "string", enum: ["ingested", "waiting", "rejected", "unexpected"] },
    code: nullableString,
    reason: nullableString,
    machineId: nullableString,
    serial: nullableString,
    dpus: {
      type: "array",
      items: {
        type: "object",
        properties: {
          address: { type: "string" },
          bmcMac: { type: "string" },
          serial: { type: "string" },
          hostFacingMac: { type: "string" },
          primary: { type: "boolean" },
          machineId: { type: "string" },
        },
      },
    },
    primaryDpu: nullableString,
    updatedAt: { type: "string", format: "date-time" },
  },
} as const;

const machineProperties = {
  id: { type: "string" },
  kind: { type: "string", enum: ["host", "dpu"] },
  state: nullableString,
  bmcAddress: { type: "string" },
  bmcMac: { type: "string" },
  serial: { type: "string" },
  dpus: { type: "array", items: { type: "string" }, description: "host only: its DPUs' ids" },
  primaryDpu: { ...nullableString, description: "host only" },
  host: { type: "string", description: "DPU only: its host's id" },
} as const;

export const machineSchema = { type: "object", properties: machineProperties } as const;

const outcomeSchema = {
  type: ["object", "null"],
  properties: {
    kind: { type: "string", description: "transition, wait, doNothing, error, deleted" },
    reason: { type: "string" },
    error: {
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" } },
    },
    at: { type: "string", format: "date-time" },
  },
} as const;

/** The managed host's lifecycle: current state, time in it against its SLA, last outcome, failure details. */
const machineLifecycleSchema = {
  type: ["object", "null"],
  required: ["stateLabel", "state", "enteredAt", "timeInStateMs", "sla", "outcome", "failure"],
  properties: {
    stateLabel: { type: "string" },
    state: { type: "object", additionalProperties: true },
    enteredAt: { type: "string", format: "date-time" },
    timeInStateMs: { type: "integer" },
    sla: {
      type: "object",
      properties: { slaMs: { type: ["integer", "null"] }, aboveSla: { type: "boolean" } },
    },
    outcome: outcomeSchema,
    failure: { type: ["object", "null"], additionalProperties: true },
  },
} as const;

export const machineDetailSchema = {
  type: "object",
  properties: {
    ...machineProperties,
    vendor: nullableString,
    model: nullableString,
    hostFacingMac: nullableString,
    createdAt: { type: "string", format: "date-time" },
    history: {
      type: "array",
      items: {
        type: "object",
        properties: {
          state: { type: "string" },
          label: { type: "string", description: "e.g. hostInit/machineSetup" },
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
    lifecycle: machineLifecycleSchema,
  },
} as const;

export const addressParams = {
  type: "object",
  required: ["address"],
  properties: {
    address: {
      type: "string",
      minLength: 1,
      maxLength: MAX_ADDRESS_LENGTH,
      description: "BMC address (URL-encoded)",
    },
  },
} as const;
