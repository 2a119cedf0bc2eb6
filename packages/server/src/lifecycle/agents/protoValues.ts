import { InvalidArgumentError } from "@racksmith/core";
import type { Timestamp__Output } from "../../api/grpc/generated/google/protobuf/Timestamp.js";

export { requiredString } from "../../api/index.js";

/** A uint64 field (a decimal string with `longs: String`) as a safe integer. */
export function uint(value: string | number | undefined, field: string): number {
  const parsed = typeof value === "number" ? value : Number(value);
  if (value === undefined || value === "" || !Number.isSafeInteger(parsed) || parsed < 0) {
    throw new InvalidArgumentError(`${field}: ${JSON.stringify(value)} is not a non-negative integer`);
  }
  return parsed;
}

/** A google.protobuf.Timestamp as ISO 8601, or undefined when absent. */
export function isoFromTimestamp(
  value: Timestamp__Output | null | undefined,
  field: string,
): string | undefined {
  if (!value) return undefined;
  const millis = Number(value.seconds) * 1000 + Math.floor((value.nanos ?? 0) / 1_000_000);
  if (!Number.isFinite(millis)) throw new InvalidArgumentError(`${field}: not a valid timestamp`);
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError(`${field}: not a valid timestamp`);
  return date.toISOString();
}
