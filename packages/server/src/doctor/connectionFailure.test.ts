import { describe, expect, it } from "vitest";
import { type ConnectionFailure, connectionFailure } from "./connectionFailure.js";

const errno = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
const sqlState = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("connectionFailure", () => {
  it.each<[string, unknown, ConnectionFailure]>([
    ["refused", errno("ECONNREFUSED"), { reason: "ECONNREFUSED", kind: "unreachable" }],
    ["unknown host", errno("ENOTFOUND"), { reason: "ENOTFOUND", kind: "unreachable" }],
    ["another errno", errno("EPIPE"), { reason: "EPIPE", kind: "other" }],
    [
      "happy eyeballs",
      new AggregateError([errno("ECONNREFUSED"), errno("EADDRNOTAVAIL")], ""),
      { reason: "ECONNREFUSED", kind: "unreachable" },
    ],
    [
      "pg's connect timeout",
      new Error("Connection terminated due to connection timeout"),
      { reason: "timeout", kind: "unreachable" },
    ],
    [
      "wrong password",
      sqlState("28P01", 'password authentication failed for user "racksmith"'),
      {
        reason: 'password authentication failed for user "racksmith" (SQLSTATE 28P01)',
        kind: "authentication",
      },
    ],
    [
      "no such database",
      sqlState("3D000", 'database "x" does not exist'),
      { reason: 'database "x" does not exist (SQLSTATE 3D000)', kind: "no-database" },
    ],
    [
      "a message quoting the password",
      new Error("bad option hunter2 in connection string"),
      { reason: "bad option [redacted] in connection string", kind: "other" },
    ],
    ["not an error", "boom", { reason: "boom", kind: "other" }],
  ])("%s", (_name, error, expected) => {
    expect(connectionFailure(error, ["hunter2"])).toEqual(expected);
  });
});
