import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../db/index.js";
import { loadProject, POSIX, tempProject } from "./__fixtures__/project.js";
import { checkDatabase } from "./databaseCheck.js";
import type { DoctorOptions } from "./types.js";

async function database(dir: string, options: Partial<DoctorOptions> = {}, runningServiceAt?: string) {
  const check = await checkDatabase({ cwd: dir, env: {}, ...options }, loadProject(dir), runningServiceAt);
  return { status: check.status, detail: check.detail, ...(check.fix ? { fix: check.fix } : {}) };
}

describe("checkDatabase: embedded PGlite", () => {
  it("a data directory that does not exist yet is fine, and doctor does not create it", async () => {
    const dir = tempProject("database: { dataDir: state/db }\n");
    expect(await database(dir)).toEqual({
      status: "ok",
      detail: "embedded PGlite at state/db: will be created on first start",
    });
    expect(existsSync(join(dir, "state"))).toBe(false);
  });

  // root may write anywhere, so the refusal shows only for another user.
  if (process.getuid?.() === 0) {
    console.info(
      "running as root: the unwritable data directory doctor case does not run (root writes anywhere)",
    );
  }
  it.runIf(POSIX && process.getuid?.() !== 0)("a data directory that could not be created", async () => {
    const dir = tempProject("database: { dataDir: locked/db }\n", {
      locked: { directory: true, mode: 0o500 },
    });
    expect(await database(dir)).toEqual({
      status: "fail",
      detail: "embedded PGlite at locked/db cannot be created: locked is not writable by this user",
      fix: "make locked writable, or set database.dataDir / --data-dir to another directory",
    });
  });

  it("--data-dir is relative to where doctor runs", async () => {
    const dir = tempProject("plugins: []\n", { elsewhere: { directory: true } });
    expect(await database(dir, { dataDir: "elsewhere" })).toEqual({
      status: "ok",
      detail: "embedded PGlite at elsewhere: empty, initialized on first start",
    });
  });

  it("a directory of something else is refused", async () => {
    const dir = tempProject("plugins: []\n", { ".racksmith/data/notes.txt": { content: "mine" } });
    expect(await database(dir)).toEqual({
      status: "fail",
      detail:
        "embedded PGlite at .racksmith/data is not a PGlite data directory (it has files but no PG_VERSION)",
      fix: "set database.dataDir / --data-dir to the data directory, or to a new one",
    });
  });

  it("an existing database is opened, its migrations reported, and closed again", async () => {
    const dir = tempProject("plugins: []\n");
    const dataDir = join(dir, ".racksmith/data");
    await (await openDatabase({ dataDir })).close();
    expect(await database(dir)).toEqual({
      status: "warn",
      detail: expect.stringMatching(
        /^embedded PGlite at \.racksmith\/data: reachable, not migrated yet \(\d+ migrations pending\)$/,
      ),
      fix: "run `racksmith db migrate` (or let `racksmith serve` apply them at start)",
    });
    expect(await database(dir, {}, "127.0.0.1:8080")).toEqual({
      status: "skip",
      detail:
        "embedded PGlite at .racksmith/data: not opened, a Racksmith service answers at 127.0.0.1:8080 and may have it open (embedded PGlite serves one process)",
    });
    const migrated = await openDatabase({ dataDir });
    await migrate(migrated);
    await migrated.close();
    expect(await database(dir)).toEqual({
      status: "ok",
      detail: expect.stringMatching(
        /^embedded PGlite at \.racksmith\/data: reachable, \d+ migrations applied, up to date$/,
      ),
    });
    // Four embedded databases opened on disk (the first initialises it): 10 s on an idle machine, 30 s and
    // more beside a whole CI run.
  }, 180_000);
});

describe("checkDatabase: PostgreSQL", () => {
  it("unreachable: names host:port and the errno code, never the password", async () => {
    const dir = tempProject("plugins: []\n");
    const check = await database(dir, { databaseUrl: "postgres://racksmith:hunter2@127.0.0.1:1/x" });
    expect(check).toEqual({
      status: "fail",
      detail:
        "cannot connect to PostgreSQL at 127.0.0.1:1 (postgres://racksmith:[redacted]@127.0.0.1:1/x, from --database-url): ECONNREFUSED",
      fix: "start PostgreSQL at 127.0.0.1:1, or fix database.url / RACKSMITH_DATABASE_URL / --database-url (from --database-url now)",
    });
    expect(JSON.stringify(check)).not.toContain("hunter2");
  });

  it("the URL from RACKSMITH_DATABASE_URL when the config names none", async () => {
    const dir = tempProject("plugins: []\n");
    const check = await database(dir, {
      env: { RACKSMITH_DATABASE_URL: "postgres://u:pw-secret@127.0.0.1:1/x" },
    });
    expect(check.detail).toContain("from RACKSMITH_DATABASE_URL");
    expect(JSON.stringify(check)).not.toContain("pw-secret");
  });

  it("a --database-url that is not a PostgreSQL URL", async () => {
    const dir = tempProject("plugins: []\n");
    expect(await database(dir, { databaseUrl: "mysql://db/x" })).toMatchObject({
      status: "fail",
      detail: "--database-url is not a PostgreSQL URL",
    });
  });

  const url = process.env.RACKSMITH_TEST_DATABASE_URL;
  if (!url)
    console.info("RACKSMITH_TEST_DATABASE_URL is not set: the reachable-PostgreSQL doctor case does not run");
  it.runIf(url)(
    "reachable: select 1 answers, and a schema never migrated has every migration pending",
    async () => {
      // A schema nobody created: doctor must read it without creating it.
      const schema = `doctor_${randomBytes(4).toString("hex")}`;
      const dir = tempProject(`database:\n  url: "${url}"\n  schema: ${schema}\n`);
      expect(await database(dir)).toMatchObject({
        status: "warn",
        detail: expect.stringMatching(/: reachable, not migrated yet \(\d+ migrations pending\)$/),
      });
    },
  );

  it.runIf(url)("reachable and migrated: up to date", async () => {
    const schema = `doctor_${randomBytes(4).toString("hex")}`;
    const migrated = await openDatabase({ url, schema });
    try {
      await migrate(migrated);
      const dir = tempProject(`database:\n  url: "${url}"\n  schema: ${schema}\n`);
      expect(await database(dir)).toMatchObject({
        status: "ok",
        detail: expect.stringMatching(/: reachable, \d+ migrations applied, up to date$/),
      });
    } finally {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(migrated.db);
      await migrated.close();
    }
  });
});
