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

/** Request bodies are checked field by field by the inventory (one reason per field, per row). */
export const machineBody = {
  type: "object",
  description: "ExpectedMachineInput: bmcMac, chassisSerial, and optional bmcAddress, factoryUsername, …",
} as const;

export const bmcMacParams = {
  type: "object",
  required: ["bmcMac"],
  properties: { bmcMac: { type: "string", minLength: 1, maxLength: 64 } },
} as const;
