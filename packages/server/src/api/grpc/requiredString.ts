import { InvalidArgumentError } from "@racksmith/core";

/** A required string field of a gRPC request: empty is how proto3 says "not given". */
export function requiredString(value: string | undefined, field: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidArgumentError(`${field} is required`, { details: { field } });
  }
  return value;
}
