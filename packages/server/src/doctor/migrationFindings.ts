import { MIGRATIONS } from "../db/index.js";
import { type DoctorCheck, finding } from "./types.js";

/** What the applied migrations say about a reachable database: up to date, behind, or ahead of this code. */
export function migrationFinding(
  where: string,
  applied: readonly string[],
  known: readonly string[] = MIGRATIONS.map((migration) => migration.name),
): DoctorCheck {
  const done = new Set(applied);
  const pending = known.filter((name) => !done.has(name));
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    return finding(
      "database",
      "warn",
      `${where}: has ${unknown.length} migration(s) this version does not know (${unknown.join(", ")}); a newer Racksmith migrated it`,
      "upgrade racksmith to the version the other replicas run",
    );
  }
  if (pending.length === known.length) {
    return finding(
      "database",
      "warn",
      `${where}: reachable, not migrated yet (${pending.length} migrations pending)`,
      "run `racksmith db migrate` (or let `racksmith serve` apply them at start)",
    );
  }
  if (pending.length > 0) {
    return finding(
      "database",
      "warn",
      `${where}: reachable, ${pending.length} migration(s) pending (${pending.join(", ")})`,
      "run `racksmith db migrate` (or let `racksmith serve` apply them at start)",
    );
  }
  return finding("database", "ok", `${where}: reachable, ${applied.length} migrations applied, up to date`);
}
