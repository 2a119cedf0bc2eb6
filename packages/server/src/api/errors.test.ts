import { describe, expect, it } from "vitest";
import { toGrpcError, toHttpError } from "./errors.js";

describe("API errors", () => {
  it("answers a write that raced a removal (a foreign-key violation) as 404 record_removed, naming the table", () => {
    const race = Object.assign(new Error('insert or update on table "machine_health" violates foreign key'), {
      code: "23503",
      table: "machine_health",
    });
    expect(toHttpError(race)).toEqual({
      statusCode: 404,
      body: {
        error: {
          code: "record_removed",
          status: "NOT_FOUND",
          message: "what this request refers to was removed while it ran (writing machine_health)",
          details: { table: "machine_health" },
        },
      },
    });
    expect(toGrpcError(race)).toMatchObject({ code: 5, errorCode: "record_removed" });
  });

  it("keeps other database errors internal, with no details", () => {
    const other = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    expect(toHttpError(other)).toMatchObject({
      statusCode: 500,
      body: { error: { code: "internal", message: "internal error", details: {} } },
    });
  });
});
