import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXAMPLE_MOCKUP, MockupServer, redfishCliArgs } from "@racksmith/testkit";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../src/main.js";
import { cli, cliJson, memoryIo } from "./support/runCliForTest.js";

/** Waits for what the running command printed; the timeout only bounds a hang, however busy the machine. */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 20_000, interval: 10 });
}

describe("racksmith mockup serve", () => {
  it("serves a tree with auth and faults until stopped, and says how to explore it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-faults-"));
    writeFileSync(
      join(dir, "faults.json"),
      JSON.stringify([{ path: "/redfish/v1/Chassis/1/Thermal", status: 503 }]),
    );
    const io = memoryIo(dir);
    const serving = runCli(
      ["mockup", "serve", EXAMPLE_MOCKUP, "--port", "0", "--auth", "basic", "--faults", "faults.json"],
      io,
    );
    await until(() => io.out.join("").includes("Press Ctrl+C"));
    const banner = io.out.join("");
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] ?? "";
    expect(banner).toContain(
      `racksmith redfish --address ${url} --username root --password racksmith explore`,
    );
    expect(banner).toContain("(auth: basic, strict, 1 fault rules)");

    expect(await cliJson(redfishCliArgs({ url }, "power-state"))).toEqual({ powerState: "On" });
    const wrong = { username: "root", password: "wrong" };
    // A wrong password is named as such, by every operation, detect included (it reads no protected data).
    for (const operation of ["detect", "explore", "power-state"]) {
      const denied = await cli(redfishCliArgs({ url, credentials: wrong }, operation));
      expect(denied.code).toBe(1);
      expect(denied.stderr.trim()).toBe(
        `racksmith: authentication failed for user root at ${url} (HTTP 401): check --username and --password (or --password-file) [bmc_auth_failed]`,
      );
    }
    const faulted = await cli(redfishCliArgs({ url }, "thermal"));
    expect(faulted.stderr).toMatch(/Thermal returned HTTP 503/);

    io.stop();
    expect(await serving).toBe(0);
  });

  it("is strict unless --lenient relaxes rules, and names the rules when one is unknown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-lenient-"));
    const io = memoryIo(dir);
    const serving = runCli(
      ["mockup", "serve", EXAMPLE_MOCKUP, "--port", "0", "--lenient", "odataVersion,methods"],
      io,
    );
    await until(() => io.out.join("").includes("Press Ctrl+C"));
    expect(io.out.join("")).toContain("(auth: none, strict but odataVersion, methods)");
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out.join(""))?.[1] ?? "";
    const asked41 = await fetch(`${url}/redfish/v1/Systems`, { headers: { "OData-Version": "4.1" } });
    expect(asked41.status).toBe(200);
    const unsupported = await fetch(`${url}/redfish/v1/Systems?$filter=x`);
    expect(unsupported.status).toBe(501);
    io.stop();
    expect(await serving).toBe(0);

    const bad = await cli(["mockup", "serve", EXAMPLE_MOCKUP, "--port", "0", "--lenient", "odata"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--lenient .*unknown: odata; the rules are methods, odataVersion/);
  });

  it("--json prints one line once listening, from which a script takes the URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-serve-json-"));
    const io = memoryIo(dir);
    const serving = runCli(
      ["mockup", "serve", EXAMPLE_MOCKUP, "--port", "0", "--auth", "basic", "--json", "--lenient", "methods"],
      io,
    );
    await until(() => io.out.join("").endsWith("\n"));
    const lines = io.out.join("").trim().split("\n");
    expect(lines).toHaveLength(1);
    const served = JSON.parse(lines[0] ?? "") as { url: string };
    expect(served).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      root: EXAMPLE_MOCKUP,
      auth: "basic",
      tls: false,
      strict: true,
      lenient: ["methods"],
      faultRules: 0,
      username: "root",
    });
    expect(await cliJson(redfishCliArgs({ url: served.url }, "power-state"))).toEqual({ powerState: "On" });
    io.stop();
    expect(await serving).toBe(0);
  });

  it("rejects a bad fault file naming the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-faults-"));
    writeFileSync(join(dir, "faults.json"), JSON.stringify([{ path: "/x", latencyMs: "slow" }]));
    const run = await cli(["mockup", "serve", EXAMPLE_MOCKUP, "--port", "0", "--faults", "faults.json"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/faults\[0\]\.latencyMs/);
  });
});

describe("racksmith mockup record", () => {
  it("records a served tree that serves the same resources", async () => {
    const source = await MockupServer.start({ root: EXAMPLE_MOCKUP, auth: "basic" });
    const out = join(mkdtempSync(join(tmpdir(), "racksmith-record-")), "bmc");
    try {
      const run = await cli([
        "mockup",
        "record",
        "--address",
        source.url,
        "--username",
        "root",
        "--password",
        "racksmith",
        "--out",
        out,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^recorded \d+ resources into /);
      expect(existsSync(join(out, "redfish", "v1", "Systems", "1", "index.json"))).toBe(true);
      const readme = readFileSync(join(out, "README"), "utf8");
      expect(readme).not.toContain("racksmith\n");
      expect(readdirSync(join(out, "redfish", "v1", "Chassis", "1"))).toContain("Thermal");
      const replay = await MockupServer.start({ root: out });
      try {
        const original = await cliJson(
          redfishCliArgs({ url: source.url }, "browse", "/redfish/v1/Systems/1"),
        );
        expect(
          await cliJson(["redfish", "--address", replay.url, "browse", "/redfish/v1/Systems/1"]),
        ).toEqual(original);
      } finally {
        await replay.stop();
      }
    } finally {
      await source.stop();
    }
  });

  it("honours the shared --auth and --ca-file flags as racksmith redfish does", async () => {
    const source = await MockupServer.start({ root: EXAMPLE_MOCKUP, auth: "session", tls: true });
    const dir = mkdtempSync(join(tmpdir(), "racksmith-record-"));
    writeFileSync(join(dir, "bmc-ca.pem"), source.certificate ?? "");
    try {
      const bmc = ["--address", source.url, "--username", "root", "--password", "racksmith"];
      const record = ["mockup", "record", ...bmc, "--json"];
      const session = await cli([...record, "--insecure", "--auth", "session", "--out", "session"], dir);
      expect(session.code, session.stderr).toBe(0);
      expect(JSON.parse(session.stdout).resources).toBeGreaterThan(10);
      // One login, one logout: the recording went through a session, not Basic.
      expect(source.stats.byMethod.POST).toBe(1);
      expect(source.stats.byMethod.DELETE).toBe(1);
      expect(source.service.state.sessions.size).toBe(0);

      source.resetStats();
      const trusted = await cli([...record, "--ca-file", "bmc-ca.pem", "--out", "trusted"], dir);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(source.stats.byMethod.POST).toBeUndefined();
      expect(existsSync(join(dir, "trusted", "redfish", "v1", "Systems", "1", "index.json"))).toBe(true);

      const unknown = await cli([...record, "--insecure", "--auth", "digest", "--out", "digest"], dir);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/--auth must be basic, session or none/);
      expect(existsSync(join(dir, "digest"))).toBe(false);
    } finally {
      await source.stop();
    }
  });

  it("honours --timeout, and --overwrite records into a folder that is not empty", async () => {
    const source = await MockupServer.start({
      root: EXAMPLE_MOCKUP,
      // Answered only when the source stops: the recording can finish only by giving up on it.
      faults: [{ path: "/redfish/v1/Systems/1/Bios", latencyMs: 600_000 }],
    });
    const out = join(mkdtempSync(join(tmpdir(), "racksmith-record-")), "bmc");
    try {
      const record = ["mockup", "record", "--address", source.url, "--out", out, "--json"];
      const run = await cli([...record, "--timeout", "0.3"]);
      expect(run.code, run.stderr).toBe(0);
      // It finished while the source still held the request: it gave up on it rather than waited for it.
      expect(source.stats.inFlight).toBeGreaterThan(0);
      const result = JSON.parse(run.stdout) as { errors: { path: string; message: string }[] };
      expect(result.errors).toContainEqual({
        path: "/redfish/v1/Systems/1/Bios",
        message: expect.stringMatching(/timed out after 300 ms/),
      });

      const again = await cli([...record, "--timeout", "0.3"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is not empty/);
      source.clearFaults();
      const overwritten = await cli([...record, "--overwrite"]);
      expect(overwritten.code, overwritten.stderr).toBe(0);
      expect(JSON.parse(overwritten.stdout).errors).not.toContainEqual(
        expect.objectContaining({ path: "/redfish/v1/Systems/1/Bios" }),
      );
      expect(existsSync(join(out, "redfish", "v1", "Systems", "1", "Bios", "index.json"))).toBe(true);
    } finally {
      await source.stop();
    }
  });
});
