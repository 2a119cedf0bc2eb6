import { describe, expect, it } from "vitest";
import { isConnectionLoss } from "./connectionLoss.js";

const pgError = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isConnectionLoss", () => {
  it.each<[string, unknown, boolean]>([
    ["connection failure (08006)", pgError("08006"), true],
    ["connection does not exist (08003)", pgError("08003"), true],
    ["pg_terminate_backend (57P01)", pgError("57P01"), true],
    ["the server starting up (57P03)", pgError("57P03"), true],
    ["a refused socket", pgError("ECONNREFUSED"), true],
    ["a reset socket", pgError("ECONNRESET"), true],
    ["pg's dropped socket", new Error("Connection terminated unexpectedly"), true],
    ["pg's pool connect timeout", new Error("timeout exceeded when trying to connect"), true],
    ["one lost connection among others", new AggregateError([new Error("a"), pgError("ECONNREFUSED")]), true],
    [
      "a statement with too many parameters (08P01)",
      pgError("08P01", "bind message has 34464 parameter formats but 0 parameters"),
      false,
    ],
    ["a unique violation (23505)", pgError("23505"), false],
    ["an undefined table (42P01)", pgError("42P01"), false],
    ["no error at all", undefined, false],
  ])("%s → %s", (_, error, expected) => {
    expect(isConnectionLoss(error)).toBe(expected);
  });
});
