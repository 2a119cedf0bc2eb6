import { HEALTH_REPORT_JSON_SCHEMA } from "@racksmith/core/health";
import { idString, MAX_ID_LENGTH, MAX_MESSAGE_LENGTH } from "../../api/index.js";
import { OVERRIDE_TEMPLATE_NAMES } from "../overrideTemplates.js";

/** JSON schemas of the health REST API (responses are serialised with them: every field is listed). */

const { $id: _id, ...reportShape } = HEALTH_REPORT_JSON_SCHEMA;

/** A HealthReport in a response (the same shape an override body or file takes). */
export const healthReportSchema = {
  ...reportShape,
  description: "A health report (camelCase): source, observedAt, successes[{id, target}], alerts[…]",
} as const;

const overrideMode = { type: "string", enum: ["merge", "replace"] } as const;

const machineId = { ...idString, description: "Host or DPU machine id" } as const;

export const machineIdParams = {
  type: "object",
  required: ["id"],
  properties: { id: machineId },
} as const;

export const overrideParams = {
  type: "object",
  required: ["id", "source"],
  properties: {
    id: machineId,
    source: { ...idString, description: "The override's source" },
  },
} as const;

export const machineHealthSchema = {
  type: "object",
  properties: {
    machineId: { type: "string" },
    hostId: { type: "string", description: "The managed host the machine belongs to (itself for a host)" },
    kind: { type: "string", enum: ["host", "dpu"] },
    report: healthReportSchema,
    overrides: {
      type: "array",
      items: { type: "object", properties: { source: { type: "string" }, mode: overrideMode } },
    },
  },
} as const;

export const historyQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      default: 50,
      description: "Newest entries to return",
    },
  },
} as const;

export const historySchema = {
  type: "object",
  properties: {
    machineId: { type: "string" },
    hostId: { type: "string" },
    entries: {
      type: "array",
      items: {
        type: "object",
        properties: {
          at: { type: "string", format: "date-time" },
          hash: { type: "string" },
          report: healthReportSchema,
        },
      },
    },
  },
} as const;

/** How many alerts or successes one report may list. */
const MAX_REPORT_ENTRIES = 1000;
/** How many classifications one alert may carry. */
const MAX_CLASSIFICATIONS = 64;
/** An ISO 8601 date-time, with room for fractions of a second. */
const MAX_TIMESTAMP_LENGTH = 64;
const idText = { maxLength: MAX_ID_LENGTH } as const;
const timestampText = { maxLength: MAX_TIMESTAMP_LENGTH } as const;
const messageText = { maxLength: MAX_MESSAGE_LENGTH } as const;

/**
 * Bounds on a HealthReport's strings and lists, with no types: `parseHealthReport` checks the report's
 * shape (every problem named), these keep each of its strings and lists small.
 */
const reportLimits = {
  properties: {
    source: idText,
    triggeredBy: idText,
    observedAt: timestampText,
    successes: {
      maxItems: MAX_REPORT_ENTRIES,
      items: { properties: { id: idText, target: idText } },
    },
    alerts: {
      maxItems: MAX_REPORT_ENTRIES,
      items: {
        properties: {
          id: idText,
          target: idText,
          inAlertSince: timestampText,
          message: messageText,
          tenantMessage: messageText,
          classifications: { maxItems: MAX_CLASSIFICATIONS, items: idText },
        },
      },
    },
  },
} as const;

/** The report is checked by `parseHealthReport`, so a bad one gets a message naming the field. */
export const addOverrideBody = {
  type: "object",
  additionalProperties: false,
  required: ["source"],
  properties: {
    source: { ...idString, description: "The override's key: one override per source" },
    mode: { ...overrideMode, description: "merge (default) or replace (hosts only)" },
    report: {
      ...reportLimits,
      type: "object",
      description: "A HealthReport; exactly one of report and template",
    },
    template: { type: "string", enum: [...OVERRIDE_TEMPLATE_NAMES], description: "A ready-made override" },
    message: {
      type: "string",
      maxLength: MAX_MESSAGE_LENGTH,
      description: "The template alert's message (a ticket, a reason)",
    },
    triggeredBy: { ...idString, description: "Who applies it" },
  },
} as const;
