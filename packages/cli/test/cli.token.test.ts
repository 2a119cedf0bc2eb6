import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningService } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expiryOf } from "../src/commands/token.js";
import { startInventoryService } from "./support/inventoryService.js";
import { cli, cliJson } from "./support/runCliForTest.js";

interface TokenRecord {
  id: string;
  role: string;
  tenant: string | null;
  subject: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

describe("racksmith token and audit (against a running service)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-token-"));
  let service: RunningService;
  let server: string;
  const admin = () => ["--server", server, "--token", service.adminToken ?? ""];

  beforeAll(async () => {
    service = await startInventoryService(dir);
    server = `http://127.0.0.1:${service.http.port}`;
  });
  afterAll(() => service?.stop());

  it("creates a token printed once, lists it without the token, and revokes it", async () => {
    const created = await cli(
      [
        "token",
        "create",
        "--role",
        "tenant",
        "--tenant",
        "acme",
        "--expires",
        "12h",
        "--subject",
        "acme-ci",
        ...admin(),
      ],
      dir,
    );
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token.split(".")).toHaveLength(3);
    expect(created.stderr).toMatch(/^token [0-9a-f-]{36} \(tenant of acme\): shown once/);

    const who = await cliJson<{ subject: string; role: string; tenant: string }>(
      ["token", "whoami", "--server", server, "--token", token],
      dir,
    );
    expect(who).toMatchObject({ subject: "acme-ci", role: "tenant", tenant: "acme" });

    const tokens = await cliJson<TokenRecord[]>(["token", "list", ...admin()], dir);
    const listed = tokens.find((record) => record.subject === "acme-ci");
    expect(listed).toMatchObject({ role: "tenant", tenant: "acme", revokedAt: null });
    expect(Date.parse(listed?.expiresAt ?? "")).toBeGreaterThan(Date.now() + 11 * 3_600_000);
    expect(JSON.stringify(tokens)).not.toContain(token);

    const revoked = await cliJson<TokenRecord>(["token", "revoke", listed?.id ?? "", ...admin()], dir);
    expect(revoked.revokedAt).not.toBeNull();
    const refused = await cli(["token", "whoami", "--server", server, "--token", token], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`token ${listed?.id} was revoked at`);
  });

  it("finds the token in RACKSMITH_TOKEN's stead in --token-file, and in the folder racksmith serve wrote it to", async () => {
    const file = join(dir, "operator.token");
    writeFileSync(file, `${service.adminToken}\n`, { mode: 0o600 });
    const fromFile = await cliJson<{ subject: string }>(
      ["token", "whoami", "--server", server, "--token-file", file],
      dir,
    );
    expect(fromFile.subject).toBe("bootstrap-admin");

    const served = mkdtempSync(join(tmpdir(), "racksmith-cli-served-"));
    mkdirSync(join(served, ".racksmith", "data"), { recursive: true });
    writeFileSync(join(served, ".racksmith", "data", "admin.token"), `${service.adminToken}\n`, {
      mode: 0o600,
    });
    const found = await cliJson<{ role: string }>(["token", "whoami", "--server", server], served);
    expect(found.role).toBe("admin");

    const nowhere = await cli(["token", "whoami", "--server", server], dir);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("GET /api/v1/auth/whoami needs a bearer token");
    const missing = await cli(["token", "whoami", "--server", server, "--token-file", "absent.token"], dir);
    expect(missing.stderr).toContain("cannot read");
  });

  it("lists every mutation with its actor, filtered by actor and target, and never a token", async () => {
    const created = await cli(
      ["token", "create", "--role", "operator", "--subject", "robot", ...admin()],
      dir,
    );
    const robot = created.stdout.trim();
    const added = await cli(
      [
        "expected-machine",
        "add",
        "--bmc-mac",
        "aabbccddee42",
        "--chassis-serial",
        "SN-42",
        "--server",
        server,
        "--token",
        robot,
      ],
      dir,
    );
    expect(added.code).toBe(0);
    const entries = await cliJson<
      Array<{ actor: string; role: string; operation: string; target: string; result: string }>
    >(["audit", "list", "--actor", "robot", "--since", "1h", ...admin()], dir);
    expect(entries).toEqual([
      expect.objectContaining({
        actor: "robot",
        role: "operator",
        operation: "POST /api/v1/expected-machines",
        target: "/api/v1/expected-machines",
        result: "201",
      }),
    ]);
    const all = await cliJson<Array<{ actor: string; operation: string }>>(
      ["audit", "list", ...admin()],
      dir,
    );
    expect(all).toContainEqual(
      expect.objectContaining({ actor: "bootstrap-admin", operation: "POST /api/v1/auth/tokens" }),
    );
    const text = JSON.stringify(all);
    expect(text).not.toContain(robot);
    expect(text).not.toContain(service.adminToken);
  });

  it.each([
    ["30m", 30 * 60_000],
    ["12h", 12 * 3_600_000],
    ["90d", 90 * 86_400_000],
  ])("reads --expires %s as a duration from now", (text, ms) => {
    const now = new Date("2026-11-29T00:00:00.000Z");
    expect(expiryOf(text, now)).toBe(new Date(now.getTime() + ms).toISOString());
  });

  it("reads --expires as an ISO date-time, and refuses anything else", () => {
    expect(expiryOf("2027-01-01T00:00:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(() => expiryOf("tomorrow")).toThrow(
      '"tomorrow" is neither a duration (30m, 12h, 90d) nor an ISO date-time',
    );
  });
});
