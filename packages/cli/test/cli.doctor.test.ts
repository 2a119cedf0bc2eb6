import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORE_VERSION } from "@racksmith/core";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "./support/runCliForTest.js";

const POSIX = process.platform !== "win32";
const FREE = 'server:\n  http: "127.0.0.1:0"\n  grpc: "127.0.0.1:0"\n';

/** A project: racksmith.yaml, and a plugin package `plugins/<name>` (no imports: it loads from /tmp). */
function project(config: string, plugin?: { name: string; coreRange: string }): string {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-doctor-"));
  writeFileSync(join(dir, "racksmith.yaml"), config);
  if (plugin) {
    const pluginDir = join(dir, "plugins", plugin.name);
    mkdirSync(pluginDir, { recursive: true });
    writeFileSync(
      join(pluginDir, "package.json"),
      JSON.stringify({
        name: plugin.name,
        version: "2.0.0",
        type: "module",
        main: "index.js",
        peerDependencies: { "@racksmith/core": plugin.coreRange },
      }),
    );
    writeFileSync(
      join(pluginDir, "index.js"),
      `export default { $$type: "@racksmith/plugin", name: ${JSON.stringify(plugin.name)}, version: "2.0.0", apiVersion: 1, register() {} };\n`,
    );
  }
  return dir;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

describe("racksmith doctor", () => {
  it("a healthy setup: exit 0, every check listed, then the summary", async () => {
    const dir = project(`plugins: [./plugins/acme-driver]\n${FREE}`, {
      name: "acme-driver",
      coreRange: `^${CORE_VERSION}`,
    });
    const run = await cli(["doctor"], dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("✓ config     racksmith.yaml: valid, 1 plugin\n");
    expect(run.stdout).toContain(`✓ plugins    acme-driver@2.0.0 on @racksmith/core ${CORE_VERSION}`);
    expect(run.stdout).toMatch(/✓ secrets {4}not created yet: \.racksmith\/credentials\.key/);
    expect(run.stdout).toContain(
      "✓ database   embedded PGlite at .racksmith/data: will be created on first start\n",
    );
    expect(run.stdout).toContain(
      "✓ listeners  REST 127.0.0.1:0 (any free port), gRPC 127.0.0.1:0 (any free port): free\n",
    );
    expect(run.stdout).toMatch(/✓ node {7}Node\.js /);
    expect(run.stdout).toMatch(/\n\n6 ok\n$/);
    expect(run.stderr).toBe("");

    const json = await cli(["doctor", "--json"], dir);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { ok: boolean; checks: Array<{ id: string; status: string }> };
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.id)).toEqual([
      "config",
      "plugins",
      "secrets",
      "database",
      "listeners",
      "node",
    ]);
  });

  it("a bad key: exit 1 naming it and the edit, the checks that need the config not run", async () => {
    const run = await cli(["doctor"], project(`serverr: {}\n${FREE}`));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ config {5}racksmith\.yaml: unknown key serverr \(did you mean server\?\)/);
    expect(run.stdout).toContain("fix: edit racksmith.yaml: rename serverr to server\n");
    expect(run.stdout).toContain("- plugins    not run: the config file has problems\n");
    expect(run.stdout).toMatch(/\n1 ok, 1 problem, 4 not run\n$/);

    const json = await cli(["doctor", "--json"], project("serverr: {}\n"));
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      checks: expect.arrayContaining([
        expect.objectContaining({ id: "config", status: "fail", detail: expect.stringContaining("serverr") }),
      ]),
    });
  });

  it("an unreachable database: exit 1 naming host:port and the fix, never the password", async () => {
    const run = await cli(
      ["doctor", "--database-url", "postgres://racksmith:hunter2@127.0.0.1:1/x"],
      project(FREE),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /✗ database {3}cannot connect to PostgreSQL at 127\.0\.0\.1:1 .*: ECONNREFUSED\n/,
    );
    expect(run.stdout).toContain(
      "fix: start PostgreSQL at 127.0.0.1:1, or fix database.url / RACKSMITH_DATABASE_URL / --database-url",
    );
    expect(run.stdout + run.stderr).not.toContain("hunter2");
  });

  it.runIf(POSIX)("a world-readable key file: exit 1 with the chmod that fixes it", async () => {
    const dir = project(FREE);
    mkdirSync(join(dir, ".racksmith"));
    writeFileSync(join(dir, ".racksmith/credentials.key"), "NDJOZXZlckRpc2Nsb3NlZEtleU1hdGVyaWFsMTIzNDU=\n");
    chmodSync(join(dir, ".racksmith/credentials.key"), 0o644);
    const run = await cli(["doctor"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "✗ secrets    .racksmith/credentials.key (inventory.credentials.keyFile) is readable by group and others (mode 0644)\n",
    );
    expect(run.stdout).toContain("fix: chmod 600 .racksmith/credentials.key\n");
    expect(run.stdout).not.toContain("NDJOZXZl");
  });

  it("a plugin built for another core: exit 1 naming the plugin and the fix", async () => {
    const dir = project(`plugins: [./plugins/future-driver]\n${FREE}`, {
      name: "future-driver",
      coreRange: "^99.0.0",
    });
    const run = await cli(["doctor"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `✗ plugins    plugin future-driver: requires @racksmith/core ^99.0.0, but ${CORE_VERSION} is running [plugin_core_version_mismatch]\n`,
    );
    expect(run.stdout).toContain(
      `fix: install a version of future-driver that supports @racksmith/core ${CORE_VERSION}, or a core within ^99.0.0\n`,
    );
  });

  it("a taken REST port: exit 1 naming the listener; a Racksmith service there is only a warning", async () => {
    const other = createServer((_request, response) => response.writeHead(404).end());
    servers.push(other);
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    const port = (other.address() as { port: number }).port;
    const run = await cli(
      ["doctor"],
      project(`server:\n  http: "127.0.0.1:${port}"\n  grpc: "127.0.0.1:0"\n`),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `✗ listeners  REST listener 127.0.0.1:${port} is in use [listen_address_in_use]\n`,
    );
    expect(run.stdout).toContain(
      "fix: stop what listens there, or choose another address (server.http / --http)\n",
    );

    const racksmith = createServer((request, response) => {
      const body = request.url === "/healthz" ? { status: "ok" } : { coreVersion: CORE_VERSION };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    servers.push(racksmith);
    await new Promise<void>((done) => racksmith.listen(0, "127.0.0.1", done));
    const running = (racksmith.address() as { port: number }).port;
    const warned = await cli(
      ["doctor"],
      project(`server:\n  http: "127.0.0.1:${running}"\n  grpc: "127.0.0.1:0"\n`),
    );
    expect(warned.code, warned.stdout).toBe(0);
    expect(warned.stdout).toContain(
      `! listeners  REST listener 127.0.0.1:${running} is in use: a Racksmith service (core ${CORE_VERSION}) is already running there\n`,
    );
    expect(warned.stdout).toMatch(/\n5 ok, 1 warning\n$/);
  });
});
