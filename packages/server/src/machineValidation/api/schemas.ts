import { DEFAULT_MAX_ARRAY_ITEMS, idString } from "../../api/index.js";

const dateTime = { type: "string", format: "date-time" } as const;
const strings = { type: "array", items: { type: "string" } } as const;

export const validationTestSchema = {
  $id: "ValidationTest",
  type: "object",
  required: [
    "id",
    "name",
    "command",
    "args",
    "timeoutMs",
    "version",
    "enabled",
    "verified",
    "platforms",
    "skus",
    "contexts",
    "description",
    "builtIn",
    "updatedAt",
  ],
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    command: { type: "string" },
    args: strings,
    timeoutMs: { type: "integer" },
    version: { type: "string" },
    enabled: { type: "boolean" },
    verified: { type: "boolean", description: "Unverified tests run only when an on-demand run names them" },
    platforms: { ...strings, description: "Chassis models it runs on; empty: every model" },
    skus: { ...strings, description: "SKU ids it runs on; empty: every host" },
    contexts: { ...strings, description: "discovery, cleanup, onDemand" },
    description: { type: "string" },
    builtIn: { type: "boolean", description: "From the plugin: read-only but for enabling" },
    updatedAt: dateTime,
  },
} as const;

export const validationRunSchema = {
  $id: "ValidationRun",
  type: "object",
  required: [
    "id",
    "machineId",
    "context",
    "requestedBy",
    "tests",
    "unschedulable",
    "status",
    "passed",
    "createdAt",
    "completedAt",
    "results",
  ],
  properties: {
    id: { type: "string" },
    machineId: { type: "string" },
    context: { type: "string" },
    requestedBy: { type: "string", enum: ["lifecycle", "operator"] },
    tests: { ...strings, description: "The ids of the tests the run was given" },
    unschedulable: {
      type: "array",
      items: {
        type: "object",
        required: ["testId", "reason"],
        properties: { testId: { type: "string" }, reason: { type: "string" } },
      },
    },
    status: { type: "string", enum: ["pending", "completed"] },
    passed: { type: ["boolean", "null"] },
    createdAt: dateTime,
    completedAt: { type: ["string", "null"], format: "date-time" },
    results: {
      type: "array",
      items: {
        type: "object",
        required: [
          "testId",
          "exitCode",
          "stdout",
          "stderr",
          "startedAt",
          "endedAt",
          "timedOut",
          "passed",
          "message",
        ],
        properties: {
          testId: { type: "string" },
          exitCode: { type: ["integer", "null"] },
          stdout: { type: "string", description: "The end of its standard output" },
          stderr: { type: "string", description: "The end of its standard error" },
          startedAt: dateTime,
          endedAt: dateTime,
          timedOut: { type: "boolean" },
          passed: { type: "boolean" },
          message: { type: "string" },
        },
      },
    },
  },
} as const;

/** A test's fields: each checked by the plugin's rules, which name the bad one. */
const testFields = {
  id: idString,
  name: { type: "string", maxLength: 1024 },
  command: { type: "string", maxLength: 1024 },
  args: { type: "array", maxItems: 64, items: { type: "string", maxLength: 1024 } },
  timeoutMs: { type: "integer" },
  enabled: { type: "boolean" },
  platforms: { type: "array", maxItems: 64, items: { type: "string", maxLength: 1024 } },
  skus: { type: "array", maxItems: 64, items: { type: "string", maxLength: 1024 } },
  contexts: { type: "array", maxItems: 3, items: { type: "string", maxLength: 32 } },
  description: { type: "string", maxLength: 1024 },
} as const;

export const addTestBody = {
  type: "object",
  required: ["id", "command", "timeoutMs"],
  additionalProperties: false,
  properties: testFields,
} as const;

export const updateTestBody = {
  type: "object",
  minProperties: 1,
  additionalProperties: false,
  properties: (({ id: _id, ...rest }) => rest)(testFields),
} as const;

export const runBody = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: { tests: { type: "array", minItems: 1, maxItems: DEFAULT_MAX_ARRAY_ITEMS, items: idString } },
} as const;
