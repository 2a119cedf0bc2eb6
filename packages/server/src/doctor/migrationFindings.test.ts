import { describe, expect, it } from "vitest";
import { migrationFinding } from "./migrationFindings.js";

const KNOWN = ["0001_a", "0002_b", "0003_c"];
const MIGRATE = "run `racksmith db migrate` (or let `racksmith serve` apply them at start)";

describe("migrationFinding", () => {
  it.each([
    [KNOWN, "ok", "db: reachable, 3 migrations applied, up to date", undefined],
    [[], "warn", "db: reachable, not migrated yet (3 migrations pending)", MIGRATE],
    [["0001_a"], "warn", "db: reachable, 2 migration(s) pending (0002_b, 0003_c)", MIGRATE],
    [
      [...KNOWN, "0004_d"],
      "warn",
      "db: has 1 migration(s) this version does not know (0004_d); a newer Racksmith migrated it",
      "upgrade racksmith to the version the other replicas run",
    ],
  ])("applied %j: %s", (applied, status, detail, fix) => {
    const check = migrationFinding("db", applied, KNOWN);
    expect(check).toEqual({
      id: "database",
      title: "database",
      status,
      detail,
      ...(fix ? { fix } : {}),
    });
  });
});
