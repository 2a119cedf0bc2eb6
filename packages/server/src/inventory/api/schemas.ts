import { MAX_ADDRESS_LENGTH, MAX_MAC_LENGTH, MAX_PASSWORD_LENGTH } from "../../api/index.js";

/** JSON schemas of the inventory's REST responses (inline: the OpenAPI document lists only core components). */
const nullableString = { type: ["string", "null"] } as const;

export const expectedMachineSchema = {
  type: "object",
  required: [
    "bmcMac",
    "bmcAddress",
    "factoryUsername",
    "hasFactoryPassword",
    "chassisSerial",
    "fallbackDpuSerials",
    "dpuMode",
    "driver",
    "labels",
    "skuId",
    "createdAt",
    "updatedAt",
  ],
  properties: {
    bmcMac: { type: "string", description: "normalised, AA:BB:CC:DD:EE:FF" },
    bmcAddress: nullableString,
    factoryUsername: nullableString,
    hasFactoryPassword: { type: "boolean", description: "the password itself is never returned" },
    chassisSerial: { type: "string" },
    fallbackDpuSerials: { type: "array", items: { type: "string" } },
    dpuMode: { type: "string", enum: ["dpu", "nic", "no-dpu"] },
    driver: nullableString,
    labels: { type: "object", additionalProperties: { type: "string" } },
    skuId: nullableString,
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
} as const;

export const rowResultSchema = {
  type: "object",
  required: ["index", "bmcMac", "ok"],
  properties: {
    index: { type: "integer" },
    bmcMac: { type: "string" },
    ok: { type: "boolean" },
    error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } },
  },
} as const;

export const dhcpLeaseSchema = {
  type: "object",
  required: ["mac", "address", "vendorClass", "relay", "static", "updatedAt"],
  properties: {
    mac: { type: "string" },
    address: { type: "string" },
    vendorClass: nullableString,
    relay: nullableString,
    static: { type: "boolean", description: "an expected machine's static address, not a pool address" },
    updatedAt: { type: "string", format: "date-time" },
  },
} as const;

export const bmcEndpointSchema = {
  type: "object",
  required: ["address", "mac"],
  properties: { address: { type: "string" }, mac: { type: "string" } },
} as const;

/** An IPv6 address in its longest textual form (IPv4-mapped) is 45 characters. */
const MAX_IP_ADDRESS_LENGTH = 64;
/** A host has a handful of DPUs; the list names their serials. */
const MAX_FALLBACK_DPU_SERIALS = 64;
const MAX_LABELS = 256;
/** The inventory's bound on a label key. */
const MAX_LABEL_KEY_LENGTH = 63;

/** The inventory's own bound on its text fields (`expectedMachines/validate.ts`). */
const INVENTORY_TEXT_LENGTH = 256;
const inventoryText = { maxLength: INVENTORY_TEXT_LENGTH } as const;

/**
 * Bounds on an ExpectedMachineInput's strings and lists, with no types: the inventory checks every field
 * itself (one reason per field, per row), and a batch reports a row of the wrong shape in its results.
 */
const machineInputLimits = {
  bmcMac: { maxLength: MAX_MAC_LENGTH },
  bmcAddress: { maxLength: MAX_ADDRESS_LENGTH },
  factoryUsername: inventoryText,
  factoryPassword: { maxLength: MAX_PASSWORD_LENGTH },
  chassisSerial: inventoryText,
  fallbackDpuSerials: { maxItems: MAX_FALLBACK_DPU_SERIALS, items: inventoryText },
  dpuMode: { maxLength: 16 },
  driver: inventoryText,
  labels: {
    maxProperties: MAX_LABELS,
    propertyNames: { maxLength: MAX_LABEL_KEY_LENGTH },
    additionalProperties: inventoryText,
  },
  skuId: inventoryText,
} as const;

/** Request bodies are checked field by field by the inventory (one reason per field, per row). */
export const machineBody = {
  type: "object",
  description: "ExpectedMachineInput: bmcMac, chassisSerial, and optional bmcAddress, factoryUsername, …",
  properties: machineInputLimits,
} as const;

/** One row of a batch: any JSON value (checked per row), its fields bounded as a single machine's are. */
export const machineRow = {
  description: "ExpectedMachineInput, checked per row",
  properties: machineInputLimits,
} as const;

export const bmcMacParams = {
  type: "object",
  required: ["bmcMac"],
  properties: { bmcMac: { type: "string", minLength: 1, maxLength: MAX_MAC_LENGTH } },
} as const;

export const dhcpDiscoveryBody = {
  type: "object",
  required: ["mac"],
  additionalProperties: false,
  properties: {
    mac: { type: "string", maxLength: MAX_MAC_LENGTH },
    vendorClass: { type: "string", maxLength: INVENTORY_TEXT_LENGTH },
    relay: { type: "string", maxLength: MAX_IP_ADDRESS_LENGTH, description: "the relay agent's IP address" },
  },
} as const;
