import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../testing/index.js";
import { ensureAdminTokenFile } from "./adminTokenFile.js";
import { ServiceTokens } from "./serviceTokens.js";
import { loadSigningKey } from "./signingKey.js";
import { TokenStore } from "./tokenStore.js";

let testDb: TestDatabase;
let dir: string;
beforeAll(async () => {
  testDb = await openTestDatabase("authtokens");
  dir = await mkdtemp(join(tmpdir(), "racksmith-auth-"));
});
afterAll(async () => {
  await testDb?.close();
  await rm(dir, { recursive: true, force: true });
});

const tokensWith = async (keyFile: string, issuer = "racksmith") => {
  const tokens = new ServiceTokens(new TokenStore(testDb.database.db), await loadSigningKey(keyFile), issuer);
  await tokens.publishKey();
  return tokens;
};

describe("the signing key and the bootstrap admin token", () => {
  it("creates the key 0600 once and reads it back; a replica verifies another's tokens through the database", async () => {
    const keyFile = join(dir, "a", "signing-key.jwk");
    const first = await loadSigningKey(keyFile);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await loadSigningKey(keyFile)).kid).toBe(first.kid);

    const replicaA = await tokensWith(keyFile);
    const replicaB = await tokensWith(join(dir, "b", "signing-key.jwk"));
    const { token } = await replicaA.issue({ role: "viewer" }, "test");
    expect((await replicaB.verify(token)).caller).toMatchObject({ role: "viewer", subject: "viewer" });
  });

  it("refuses a key file that holds no Ed25519 key, naming the config key", async () => {
    const bad = join(dir, "bad.jwk");
    await writeFile(bad, "{}");
    await expect(loadSigningKey(bad)).rejects.toMatchObject({ code: "config_invalid" });
    await expect(loadSigningKey(bad)).rejects.toThrow(
      "auth.signingKeyFile: cannot use it as an Ed25519 private JWK",
    );
  });

  it("writes an admin token 0600, keeps it while it works, and replaces one that no longer does", async () => {
    const tokens = await tokensWith(join(dir, "a", "signing-key.jwk"));
    const file = join(dir, "data", "admin.token");
    const token = await ensureAdminTokenFile(tokens, file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(token);
    expect((await tokens.verify(token)).caller).toMatchObject({ role: "admin", subject: "bootstrap-admin" });
    expect(await ensureAdminTokenFile(tokens, file)).toBe(token);

    const id = (await tokens.verify(token)).caller.tokenId ?? "";
    await tokens.revoke(id);
    const replaced = await ensureAdminTokenFile(tokens, file);
    expect(replaced).not.toBe(token);
    expect((await readFile(file, "utf8")).trim()).toBe(replaced);
  });

  it("refuses another issuer's token, an expired one and a tampered one, saying which", async () => {
    const tokens = await tokensWith(join(dir, "a", "signing-key.jwk"));
    const other = await tokensWith(join(dir, "a", "signing-key.jwk"), "another-site");
    const { token: foreign } = await other.issue({ role: "admin" }, "test");
    await expect(tokens.verify(foreign)).rejects.toThrow("the token's issuer is not accepted");

    const past = new Date(Date.now() - 3_600_000);
    const { token: expired } = await tokens.issue(
      { role: "viewer", expiresAt: new Date(past.getTime() + 60_000) },
      "test",
      past,
    );
    await expect(tokens.verify(expired)).rejects.toThrow("the token expired at");

    const { token } = await tokens.issue({ role: "viewer" }, "test");
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, racksmith_role: "admin" })).toString("base64url");
    await expect(tokens.verify(`${header}.${forged}.${signature}`)).rejects.toThrow(
      "the token's signature does not verify",
    );
  });
});
