import { idString, MAX_ID_LENGTH } from "../../api/index.js";
import { SKU_ASSIGNERS } from "../tables.js";

const dateTime = { type: "string", format: "date-time" } as const;
const nullableDateTime = { type: ["string", "null"], format: "date-time" } as const;

const skuSummaryProperties = {
  id: { type: "string" },
  schemaVersion: { type: "integer", description: "The rules' schema version the SKU is compared by" },
  description: { type: "string" },
  createdAt: dateTime,
  hostIds: { type: "array", items: { type: "string" }, description: "Hosts assigned to the SKU" },
} as const;

/** A SKU in a list: no document. */
export const skuSummarySchema = {
  $id: "SkuSummary",
  type: "object",
  required: Object.keys(skuSummaryProperties),
  properties: skuSummaryProperties,
} as const;

export const skuSchema = {
  $id: "Sku",
  type: "object",
  required: [...Object.keys(skuSummaryProperties), "document"],
  properties: {
    ...skuSummaryProperties,
    document: {
      type: "object",
      additionalProperties: true,
      description: "The SKU as the plugin's rules define it (what `sku create` reads back)",
    },
  },
} as const;

export const hostSkuSchema = {
  $id: "HostSku",
  type: "object",
  required: [
    "hostId",
    "skuId",
    "assignedBy",
    "assignedAt",
    "verifyRequestedAt",
    "verdict",
    "verifiedAt",
    "state",
  ],
  properties: {
    hostId: { type: "string" },
    skuId: { type: ["string", "null"] },
    assignedBy: { type: ["string", "null"], enum: [...SKU_ASSIGNERS, null] },
    assignedAt: nullableDateTime,
    verifyRequestedAt: nullableDateTime,
    verdict: {
      type: ["object", "null"],
      additionalProperties: true,
      description:
        "The last BOM verdict: kind passed | waitingForSkuAssignment | skuMissing | skuVerificationFailed (with skuId and mismatches)",
    },
    verifiedAt: nullableDateTime,
    state: { type: "string", description: "The host's lifecycle state" },
  },
} as const;

/** A SKU document: its fields are checked by the plugin's rules, which name the bad one. */
export const createBody = {
  type: "object",
  required: ["id"],
  properties: { id: idString },
  maxProperties: 64,
} as const;

export const generateBody = {
  type: "object",
  required: ["machineId"],
  additionalProperties: false,
  properties: {
    machineId: idString,
    id: { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH, description: "Default: the rules' naming" },
    description: { type: "string", maxLength: 256 },
  },
} as const;

export const assignBody = {
  type: "object",
  required: ["machineIds"],
  additionalProperties: false,
  properties: {
    machineIds: { type: "array", minItems: 1, maxItems: 1000, uniqueItems: true, items: idString },
  },
} as const;
