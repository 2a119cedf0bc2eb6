import { MAX_ID_LENGTH } from "../../../../api/index.js";

/** JSON schemas of the NVLink partitions REST API (responses are serialised with them). */
const physicalPartitionSchema = {
  type: "object",
  required: ["domain", "nmxmId", "number", "name", "gpus"],
  properties: {
    domain: { type: "string", description: "NVLink domain (NMX-M DomainUUID)" },
    nmxmId: { type: "string", description: "NMX-M partition id" },
    number: { type: ["integer", "null"], description: "NMX-M partition number" },
    name: { type: "string" },
    gpus: { type: "array", items: { type: "string" }, description: "Member GPUs (NMX-M ids) last observed" },
  },
} as const;

export const logicalPartitionSchema = {
  $id: "NvLinkLogicalPartition",
  type: "object",
  required: ["id", "name", "tenant", "state", "physicalPartitions", "createdAt", "deletedAt"],
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    tenant: { type: "string", description: "Tenant organisation" },
    state: { type: "string", enum: ["Ready", "Deleting", "Error"] },
    reason: { type: "string", description: "Why it is in Error" },
    physicalPartitions: { type: "array", items: physicalPartitionSchema },
    createdAt: { type: "string", format: "date-time" },
    deletedAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

export const createBody = {
  type: "object",
  required: ["tenantOrg"],
  additionalProperties: false,
  properties: {
    name: { type: "string", maxLength: 63 },
    tenantOrg: { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH },
  },
} as const;

export const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: { tenantOrg: { type: "string", maxLength: MAX_ID_LENGTH } },
} as const;

export const browseQuery = {
  type: "object",
  required: ["path"],
  additionalProperties: false,
  properties: { path: { type: "string", minLength: 1, description: "NMX-M API path, e.g. nmx/v1/gpus" } },
} as const;
