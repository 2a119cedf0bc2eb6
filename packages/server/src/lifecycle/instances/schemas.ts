import { idString, MAX_ID_LENGTH, MAX_MESSAGE_LENGTH } from "../../api/index.js";

/** JSON schemas of the instances REST API (responses are serialised with them: every field is listed). */

/** A host's DPU functions (pf0, pf0vf1, …) or its HCA ports: one entry each, VFs included. */
const MAX_INTERFACES = 256;
/** A host's GPUs. */
const MAX_GPUS = 64;
/** A DPU function name such as `pf0vf127`. */
const MAX_FUNCTION_LENGTH = 32;
const idText = { type: "string", maxLength: MAX_ID_LENGTH } as const;

const nullableString = { type: ["string", "null"] } as const;
const dateTime = { type: "string", format: "date-time" } as const;
const nullableDateTime = { type: ["string", "null"], format: "date-time" } as const;

const interfaceSchema = {
  type: "object",
  required: ["function", "network"],
  additionalProperties: false,
  properties: {
    function: {
      type: "string",
      maxLength: MAX_FUNCTION_LENGTH,
      description: "DPU function on the host: pf0, pf0vf1, …",
    },
    network: { ...idText, description: "Tenant network the interface joins" },
  },
} as const;

const infinibandInterfaceSchema = {
  type: "object",
  required: ["device", "partitionId"],
  additionalProperties: false,
  properties: {
    device: {
      ...idText,
      description: 'HCA model as the host agent lists it, e.g. "MT2910 Family [ConnectX-7]"',
    },
    deviceInstance: { type: "integer", description: "Which of the host's devices of that model (0-based)" },
    virtualFunction: {
      type: ["integer", "null"],
      description: "A virtual function; null for the physical one",
    },
    partitionId: { ...idText, description: "The IB partition the port joins" },
  },
} as const;

const nvlinkGpuSchema = {
  type: "object",
  required: ["deviceInstance", "logicalPartitionId"],
  additionalProperties: false,
  properties: {
    deviceInstance: { type: "integer", description: "Which of the host's GPUs (0-based)" },
    logicalPartitionId: idText,
  },
} as const;

/** Shape only: function patterns, empty networks and duplicates are checked by the service (same as gRPC). */
export const instanceConfigSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    network: {
      type: "object",
      additionalProperties: false,
      properties: { interfaces: { type: "array", maxItems: MAX_INTERFACES, items: interfaceSchema } },
    },
    infiniband: {
      type: "object",
      description: "Only while fabrics.infiniband is configured",
      additionalProperties: false,
      properties: {
        interfaces: { type: "array", maxItems: MAX_INTERFACES, items: infinibandInterfaceSchema },
      },
    },
    nvlink: {
      type: "object",
      description: "Only while fabrics.nvlink is configured",
      additionalProperties: false,
      properties: { gpus: { type: "array", maxItems: MAX_GPUS, items: nvlinkGpuSchema } },
    },
  },
} as const;

const releaseIssueSchema = {
  type: "object",
  required: ["category", "summary"],
  properties: {
    category: { type: "string", description: "hardware | performance | other" },
    summary: { type: "string" },
  },
} as const;

const syncState = { type: "string", enum: ["synced", "pending"] } as const;

export const instanceSchema = {
  type: "object",
  required: [
    "id",
    "name",
    "machineId",
    "tenantOrg",
    "instanceType",
    "config",
    "configVersion",
    "status",
    "createdAt",
    "releaseRequestedAt",
    "terminatedAt",
    "releaseIssue",
  ],
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    machineId: { type: "string" },
    tenantOrg: { type: "string" },
    instanceType: nullableString,
    config: instanceConfigSchema,
    configVersion: { type: "integer" },
    status: {
      type: "object",
      required: ["tenantState", "hostState", "configsSynced", "healthAlerts"],
      properties: {
        tenantState: {
          type: "string",
          enum: [
            "Provisioning",
            "Configuring",
            "Ready",
            "Updating",
            "Terminating",
            "Terminated",
            "Failed",
            "Invalid",
          ],
        },
        hostState: { ...nullableString, description: "The host's lifecycle state label" },
        configsSynced: {
          type: "object",
          required: ["aggregate", "subsystems"],
          properties: {
            aggregate: syncState,
            subsystems: { type: "object", additionalProperties: syncState },
          },
        },
        healthAlerts: {
          type: "array",
          description: "The host's health alerts a tenant may see (those with a tenant message)",
          items: {
            type: "object",
            required: ["id", "message"],
            properties: { id: { type: "string" }, target: { type: "string" }, message: { type: "string" } },
          },
        },
      },
    },
    createdAt: dateTime,
    releaseRequestedAt: nullableDateTime,
    terminatedAt: nullableDateTime,
    releaseIssue: { ...releaseIssueSchema, type: ["object", "null"] },
  },
} as const;

export const allocateBody = {
  type: "object",
  required: ["tenantOrg"],
  additionalProperties: false,
  properties: {
    tenantOrg: idString,
    machineId: { ...idText, description: "This host (one of machineId and instanceType)" },
    instanceType: { ...idText, description: "Any free Ready host of this SKU" },
    config: instanceConfigSchema,
    name: { ...idText, description: "Default: the instance id" },
  },
} as const;

export const releaseBody = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    issue: {
      ...releaseIssueSchema,
      required: ["category"],
      additionalProperties: false,
      properties: {
        category: { ...releaseIssueSchema.properties.category, maxLength: 64 },
        summary: { type: "string", maxLength: MAX_MESSAGE_LENGTH },
      },
    },
  },
} as const;

export const updateConfigBody = {
  type: "object",
  required: ["config"],
  additionalProperties: false,
  properties: {
    config: instanceConfigSchema,
    ifVersionMatch: {
      type: "integer",
      minimum: 0,
      description: "Only if the config is still at this version",
    },
  },
} as const;

export const findQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    tenantOrg: idText,
    machineId: idText,
    includeTerminated: { type: "boolean", default: false },
  },
} as const;
