import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../src/main.js";
import { cli, memoryIo } from "./support/runCliForTest.js";

/** Waits for what the running command printed; the timeout only bounds a hang, however busy the machine. */
async function until(condition: () => boolean): Promise<void> {
  // Embedded PostgreSQL takes a few seconds to start on a busy machine.
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 90_000, interval: 20 });
}

function projectWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-serve-"));
  writeFileSync(join(dir, "racksmith.yaml"), config);
  return dir;
}

describe("racksmith serve", () => {
  it("starts on the embedded database, logs where it listens once, answers /readyz, and stops on a signal", async () => {
    const dir = projectWith("log:\n  level: info\n");
    const io = memoryIo(dir);
    const serving = runCli(
      ["serve", "--http", "127.0.0.1:0", "--grpc", "127.0.0.1:0", "--data-dir", "data"],
      io,
    );
    await until(() => io.out.join("").includes("racksmith listening"));
    const lines = io.out
      .join("")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const listening = lines.filter((line) => line.msg === "racksmith listening");
    expect(listening).toHaveLength(1);
    expect(listening[0]).toMatchObject({ level: 30, database: expect.stringContaining(join(dir, "data")) });
    const http = String(listening[0]?.http);
    expect((await fetch(`${http}/readyz`)).status).toBe(200);
    io.stop();
    expect(await serving).toBe(0);
    expect(io.out.join("")).toContain("racksmith stopped");
  }, 120_000);

  it.each([
    ["sever:\n  http: 127.0.0.1:0\n", /racksmith\.yaml: unknown key sever \(did you mean server\?\)/],
    ["engine:\n  concurrency: many\n", /racksmith\.yaml: engine\.concurrency: must be an integer/],
    ["server:\n  grpc: nowhere\n", /racksmith\.yaml: server\.grpc: must look like "127\.0\.0\.1:50051" or/],
  ])("refuses a broken config with one line naming the key: %j", async (config, message) => {
    const run = await cli(["serve"], projectWith(config));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it("refuses an unreachable database with one line naming the URL, password redacted", async () => {
    const run = await cli(
      [
        "serve",
        "--database-url",
        "postgres://racksmith:S3cret-Pw@127.0.0.1:1/racksmith",
        "--http",
        "127.0.0.1:0",
        "--grpc",
        "127.0.0.1:0",
      ],
      projectWith(""),
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/127\.0\.0\.1:1\/racksmith/);
    expect(run.stderr).not.toContain("S3cret-Pw");
    expect(run.stderr).toMatch(/\[database_unavailable\]/);
  });
});

describe("racksmith db migrate", () => {
  it("migrates the embedded database once and then says it is up to date", async () => {
    const dir = projectWith("");
    const first = await cli(["db", "migrate", "--data-dir", "db"], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied \S+/);
    const second = await cli(["db", "migrate", "--data-dir", "db", "--json"], dir);
    expect(JSON.parse(second.stdout)).toMatchObject({ applied: [] });
  }, 120_000);

  it("takes --data-dir relative to where it runs, and database.dataDir relative to the config file", async () => {
    const dir = projectWith("");
    mkdirSync(join(dir, "conf"));
    writeFileSync(join(dir, "conf", "racksmith.yaml"), "database:\n  dataDir: stored\n");
    const flag = await cli(
      ["db", "migrate", "--config", "conf/racksmith.yaml", "--data-dir", "db", "--json"],
      dir,
    );
    expect(JSON.parse(flag.stdout).database).toContain(join(dir, "db"));
    const configured = await cli(["db", "migrate", "--config", "conf/racksmith.yaml", "--json"], dir);
    expect(JSON.parse(configured.stdout).database).toContain(join(dir, "conf", "stored"));
  }, 120_000);
});
