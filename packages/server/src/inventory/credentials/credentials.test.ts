import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveInventoryConfig } from "../configSchema.js";
import type { CredentialKey } from "../contracts.js";
import { FileCredentialStore } from "./fileCredentialStore.js";
import { credentialKeyId, parseCredentialKeyId } from "./keys.js";
import { MemoryCredentialStore } from "./memoryCredentialStore.js";
import { writePrivateFile } from "./privateFiles.js";
import { openSiteCredentialStore } from "./siteCredentialStore.js";

const POSIX = process.platform !== "win32";
const SECRET = "Fact0ry-S3cret!";

function project(): { dir: string; store: FileCredentialStore } {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-credentials-"));
  return {
    dir,
    store: new FileCredentialStore({ directory: join(dir, "secrets"), keyFile: join(dir, "key") }),
  };
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("expected a rejection");
}

const everyFile = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");

describe("credential keys", () => {
  it.each<[CredentialKey, string]>([
    [{ kind: "site-bmc-root" }, "site-bmc-root"],
    [{ kind: "factory-default", vendor: "Dell" }, "factory-default.dell"],
    [{ kind: "bmc", mac: "b83fd2909582" }, "bmc.B8-3F-D2-90-95-82"],
    [{ kind: "bmc-rotation", mac: "b8:3f:d2:90:95:82" }, "bmc-rotation.B8-3F-D2-90-95-82"],
    [{ kind: "bmc-factory", mac: "B8-3F-D2-90-95-82" }, "bmc-factory.B8-3F-D2-90-95-82"],
  ])("%j ↔ %s", (key, id) => {
    expect(credentialKeyId(key)).toBe(id);
    expect(credentialKeyId(parseCredentialKeyId(id) as CredentialKey)).toBe(id);
  });

  it.each([
    [{ kind: "bmc", mac: "nope" }, 'mac "nope" is not a MAC address'],
    [{ kind: "factory-default", vendor: "../etc" }, 'vendor "../etc" must be letters'],
    [{ kind: "teapot" }, 'unknown credential kind "teapot"'],
  ])("refuses %j", (key, message) => {
    expect(() => credentialKeyId(key as CredentialKey)).toThrow(message);
  });

  it.each(["bmc", "bmc.zz", "site-bmc-root.x", "a.b.c", "factory-default.a/b"])(
    "ignores the file name %s",
    (id) => {
      expect(parseCredentialKeyId(id)).toBeUndefined();
    },
  );
});

describe("FileCredentialStore", () => {
  it("round-trips secrets, normalising keys, and lists keys only", async () => {
    const { store } = project();
    expect(await store.get({ kind: "site-bmc-root" })).toBeUndefined();
    await store.set({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" }, { username: "root", password: SECRET });
    await store.set({ kind: "factory-default", vendor: "Dell" }, { username: "root", password: "calvin" });
    expect(await store.get({ kind: "bmc", mac: "AABBCCDDEE01" })).toEqual({
      username: "root",
      password: SECRET,
    });
    expect(await store.get({ kind: "factory-default", vendor: "dell" })).toEqual({
      username: "root",
      password: "calvin",
    });
    expect(await store.list()).toEqual([
      { kind: "bmc", mac: "AA:BB:CC:DD:EE:01" },
      { kind: "factory-default", vendor: "dell" },
    ]);
    await store.set({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" }, { username: "admin", password: "next" });
    expect(await store.get({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" })).toEqual({
      username: "admin",
      password: "next",
    });
    await store.delete({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" });
    await store.delete({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" });
    expect(await store.get({ kind: "bmc", mac: "aa:bb:cc:dd:ee:01" })).toBeUndefined();
    expect(await store.list()).toEqual([{ kind: "factory-default", vendor: "dell" }]);
  });

  it("creates the key (0600) and directory (0700) with the first secret, and encrypts at rest", async () => {
    const { dir, store } = project();
    expect(existsSync(store.keyFile)).toBe(false);
    expect(await store.status()).toMatchObject({
      ok: true,
      detail: expect.stringContaining("no secrets yet"),
    });
    await store.set({ kind: "site-bmc-root" }, { username: "root", password: SECRET });
    if (POSIX) {
      expect(statSync(store.keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(store.directory).mode & 0o777).toBe(0o700);
      expect(statSync(join(store.directory, "site-bmc-root.secret")).mode & 0o777).toBe(0o600);
    }
    const onDisk = everyFile(dir);
    expect(onDisk).not.toContain(SECRET);
    expect(onDisk).not.toContain(Buffer.from(SECRET).toString("base64"));
    expect(onDisk).toContain('"algorithm":"aes-256-gcm"');
    // A fresh IV per write: the same value seals differently each time.
    const file = join(store.directory, "site-bmc-root.secret");
    const first = readFileSync(file, "utf8");
    await store.set({ kind: "site-bmc-root" }, { username: "root", password: SECRET });
    expect(readFileSync(file, "utf8")).not.toBe(first);
    expect(await store.status()).toEqual({ ok: true, detail: "1 secret(s) stored" });
  });

  it("refuses a tampered, truncated or moved secret with a typed error that names it and no value", async () => {
    const { store } = project();
    const key = { kind: "bmc", mac: "aa:bb:cc:dd:ee:02" } as const;
    await store.set(key, { username: "root", password: SECRET });
    const file = join(store.directory, "bmc.AA-BB-CC-DD-EE-02.secret");
    const sealed = JSON.parse(readFileSync(file, "utf8")) as { ciphertext: string };
    const bytes = Buffer.from(sealed.ciphertext, "base64");
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    writeFileSync(file, JSON.stringify({ ...sealed, ciphertext: bytes.toString("base64") }));
    const tampered = await rejection(store.get(key));
    expect(tampered).toMatchObject({ code: "credential_corrupt" });
    expect(tampered.message).toContain("bmc AA:BB:CC:DD:EE:02");
    expect(tampered.message).toContain("authentication failed");

    writeFileSync(file, '{"version":1,');
    expect(await rejection(store.get(key))).toMatchObject({ code: "credential_corrupt" });

    // A valid file copied over another entry's name is bound to its own id.
    await store.set({ kind: "bmc", mac: "aa:bb:cc:dd:ee:03" }, { username: "root", password: SECRET });
    writeFileSync(file, readFileSync(join(store.directory, "bmc.AA-BB-CC-DD-EE-03.secret")));
    const moved = await rejection(store.get(key));
    expect(moved).toMatchObject({ code: "credential_corrupt" });
    expect(JSON.stringify(moved)).not.toContain(SECRET);
  });

  it("answers from what it read while the file is unchanged, and follows a file replaced, edited or removed", async () => {
    const { dir, store } = project();
    const key = { kind: "bmc", mac: "aa:bb:cc:dd:ee:04" } as const;
    await store.set(key, { username: "root", password: "first" });
    const read = await store.get(key);
    expect(read).toEqual({ username: "root", password: "first" });
    // What a caller does with its copy is not what the store holds.
    if (read) read.password = "changed by a caller";
    expect(await store.get(key)).toEqual({ username: "root", password: "first" });

    // Another process (the CLI) replaces the secret: the next read sees it.
    const other = new FileCredentialStore({ directory: store.directory, keyFile: join(dir, "key") });
    await other.set(key, { username: "root", password: "second" });
    expect(await store.get(key)).toEqual({ username: "root", password: "second" });

    // An edit in place (a file of another size) is read again, and refused when it does not open.
    const file = join(store.directory, "bmc.AA-BB-CC-DD-EE-04.secret");
    writeFileSync(file, '{"version":1,');
    expect(await rejection(store.get(key))).toMatchObject({ code: "credential_corrupt" });

    await other.set(key, { username: "root", password: "third" });
    expect(await store.get(key)).toEqual({ username: "root", password: "third" });
    rmSync(file);
    expect(await store.get(key)).toBeUndefined();
    // Found absent, then written by another process: the next read finds it.
    expect(await store.get(key)).toBeUndefined();
    await other.set(key, { username: "root", password: "fourth" });
    expect(await store.get(key)).toEqual({ username: "root", password: "fourth" });
    // Reads side by side (a BMC session asks for three keys at once) each get their own answer.
    const other2 = { kind: "bmc-rotation", mac: "aa:bb:cc:dd:ee:04" } as const;
    expect(await Promise.all([store.get(key), store.get(other2), store.get(key)])).toEqual([
      { username: "root", password: "fourth" },
      undefined,
      { username: "root", password: "fourth" },
    ]);
  });

  it("refuses a secret sealed with another key, and a missing key while secrets exist", async () => {
    const { store } = project();
    await store.set({ kind: "site-bmc-root" }, { username: "root", password: SECRET });
    writeFileSync(store.keyFile, `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o600 });
    const other = new FileCredentialStore({ directory: store.directory, keyFile: store.keyFile });
    expect(await rejection(other.get({ kind: "site-bmc-root" }))).toMatchObject({
      code: "credential_corrupt",
    });

    const { rmSync } = await import("node:fs");
    rmSync(store.keyFile);
    const keyless = new FileCredentialStore({ directory: store.directory, keyFile: store.keyFile });
    expect(await rejection(keyless.get({ kind: "site-bmc-root" }))).toMatchObject({
      code: "credentials_key_missing",
    });
    const write = await rejection(
      keyless.set({ kind: "bmc", mac: "aa:bb:cc:dd:ee:09" }, { username: "u", password: "p" }),
    );
    expect(write).toMatchObject({ code: "credentials_key_missing" });
    expect(write.message).toContain("restore the key file");
    expect(existsSync(store.keyFile)).toBe(false);
    expect(await keyless.status()).toMatchObject({
      ok: false,
      detail: expect.stringContaining("is missing but"),
    });
  });

  it.skipIf(!POSIX)(
    "refuses a key file or directory others can read, naming the file and the chmod",
    async () => {
      const { store } = project();
      await store.set({ kind: "site-bmc-root" }, { username: "root", password: SECRET });
      chmodSync(store.keyFile, 0o644);
      const fresh = () => new FileCredentialStore({ directory: store.directory, keyFile: store.keyFile });
      const keyError = await rejection(fresh().get({ kind: "site-bmc-root" }));
      expect(keyError).toMatchObject({ code: "credentials_insecure_permissions" });
      expect(keyError.message).toBe(
        `${store.keyFile} is accessible by group or others (mode 0644); run: chmod 600 ${store.keyFile}`,
      );
      // /readyz names the file by its role, not its path.
      expect(await fresh().status()).toEqual({
        ok: false,
        detail:
          "credential store unusable: the key file is accessible by group or others (mode 0644); run: chmod 600 the key file",
      });
      chmodSync(store.keyFile, 0o600);

      chmodSync(store.directory, 0o755);
      const directoryError = await rejection(fresh().list());
      expect(directoryError.message).toBe(
        `${store.directory} is accessible by group or others (mode 0755); run: chmod 700 ${store.directory}`,
      );
      chmodSync(store.directory, 0o700);
      expect(await fresh().get({ kind: "site-bmc-root" })).toEqual({ username: "root", password: SECRET });
    },
  );

  it("init creates a key once and refuses to replace it", async () => {
    const { store } = project();
    await store.init();
    expect(readFileSync(store.keyFile, "utf8")).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    const again = await rejection(new FileCredentialStore(store).init());
    expect(again).toMatchObject({ code: "credentials_key_exists" });
    expect(again.message).toContain(store.keyFile);
  });

  it.each([
    ["too short", "c2hvcnQ=\n"],
    ["not base64 or hex", `${"z".repeat(64)}\n`],
  ])("refuses a key file that is %s", async (_what, text) => {
    const { store } = project();
    mkdirSync(store.directory, { mode: 0o700 });
    writeFileSync(store.keyFile, text, { mode: 0o600 });
    writeFileSync(join(store.directory, "site-bmc-root.secret"), "{}", { mode: 0o600 });
    expect(await rejection(store.get({ kind: "site-bmc-root" }))).toMatchObject({
      code: "credentials_key_invalid",
      message: `credentials key file ${store.keyFile}: must hold 32 bytes in base64 or hex`,
    });
  });

  it("accepts a hex key (e.g. from openssl rand -hex 32)", async () => {
    const { store } = project();
    writeFileSync(store.keyFile, `${"ab".repeat(32)}\n`, { mode: 0o600 });
    await store.set({ kind: "site-bmc-root" }, { username: "root", password: SECRET });
    expect(await store.get({ kind: "site-bmc-root" })).toEqual({ username: "root", password: SECRET });
  });
});

describe("writePrivateFile", () => {
  it("replaces a file whole through a temporary file and leaves no temporary behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-atomic-"));
    const file = join(dir, "entry.secret");
    await writePrivateFile(file, "old");
    await writePrivateFile(file, "new");
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["entry.secret"]);
  });

  it("keeps the old content when the write fails before the rename", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-atomic-"));
    const file = join(dir, "entry.secret");
    await writePrivateFile(file, "old");
    // A directory where the target is: the rename fails after the temporary file was written in full.
    const blocked = join(dir, "blocked");
    mkdirSync(join(blocked, "x"), { recursive: true });
    await expect(writePrivateFile(blocked, "new")).rejects.toThrow();
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(dir).sort()).toEqual(["blocked", "entry.secret"]);
  });

  it("with exclusive, refuses an existing file and keeps it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-atomic-"));
    const file = join(dir, "key");
    await writePrivateFile(file, "first", { exclusive: true });
    await expect(writePrivateFile(file, "second", { exclusive: true })).rejects.toMatchObject({
      code: "EEXIST",
    });
    expect(readFileSync(file, "utf8")).toBe("first");
    expect(readdirSync(dir)).toEqual(["key"]);
  });
});

describe("SiteCredentialStore (secrets mounted as files named in the config)", () => {
  function site() {
    const dir = mkdtempSync(join(tmpdir(), "racksmith-site-"));
    mkdirSync(join(dir, "mounted"));
    writeFileSync(join(dir, "mounted/root"), "site-root-pw\n", { mode: 0o600 });
    writeFileSync(join(dir, "mounted/dell"), "calvin", { mode: 0o600 });
    const config = resolveInventoryConfig({
      credentials: {
        directory: "store",
        keyFile: "store.key",
        siteBmcRootPasswordFile: "mounted/root",
        factoryDefaults: { Dell: { username: "root", passwordFile: "mounted/dell" } },
      },
    });
    return { dir, store: openSiteCredentialStore(config.credentials, dir) };
  }

  it("serves mounted files (relative to the config), read-only, over the encrypted store", async () => {
    const { dir, store } = site();
    expect(await store.get({ kind: "site-bmc-root" })).toEqual({
      username: "root",
      password: "site-root-pw",
    });
    expect(await store.get({ kind: "factory-default", vendor: "DELL" })).toEqual({
      username: "root",
      password: "calvin",
    });
    const refused = await rejection(
      store.set({ kind: "site-bmc-root" }, { username: "root", password: "x" }),
    );
    expect(refused).toMatchObject({ code: "credential_read_only" });
    expect(refused.message).toContain(join(dir, "mounted/root"));
    expect(refused.message).toContain("inventory.credentials.siteBmcRootPasswordFile");
    await store.set({ kind: "bmc", mac: "aa:bb:cc:dd:ee:05" }, { username: "root", password: SECRET });
    expect(await store.entries()).toEqual([
      { key: { kind: "site-bmc-root" }, source: "file", file: join(dir, "mounted/root") },
      { key: { kind: "factory-default", vendor: "dell" }, source: "file", file: join(dir, "mounted/dell") },
      { key: { kind: "bmc", mac: "AA:BB:CC:DD:EE:05" }, source: "store" },
    ]);
    expect(existsSync(join(dir, "store.key"))).toBe(true);
    expect(await store.status()).toMatchObject({ ok: true, detail: expect.stringContaining("2 mounted") });
  });

  it.skipIf(!POSIX)("refuses a mounted file others can read, in calls and in status", async () => {
    const { dir, store } = site();
    // Read once first: a password kept from an earlier read is refused all the same.
    await store.get({ kind: "factory-default", vendor: "dell" });
    chmodSync(join(dir, "mounted/dell"), 0o644);
    expect(await rejection(store.get({ kind: "factory-default", vendor: "dell" }))).toMatchObject({
      code: "credentials_insecure_permissions",
    });
    expect(await store.status()).toMatchObject({ ok: false, detail: expect.stringContaining("chmod 600") });
  });

  it("follows a mounted file replaced or rewritten after a read", async () => {
    const { dir, store } = site();
    const root = { kind: "site-bmc-root" } as const;
    expect((await store.get(root))?.password).toBe("site-root-pw");
    // Rotated as a secret mount does it: a new file renamed over the old.
    writeFileSync(join(dir, "mounted/.root.new"), "rotated-pw\n", { mode: 0o600 });
    renameSync(join(dir, "mounted/.root.new"), join(dir, "mounted/root"));
    expect((await store.get(root))?.password).toBe("rotated-pw");
    // Rewritten in place, by an editor.
    writeFileSync(join(dir, "mounted/root"), "edited-in-place-pw");
    expect((await store.get(root))?.password).toBe("edited-in-place-pw");
    expect(await store.get(root)).toEqual({ username: "root", password: "edited-in-place-pw" });
  });

  it("names a missing mounted file and its setting", async () => {
    const { dir, store } = site();
    const { rmSync } = await import("node:fs");
    await store.get({ kind: "site-bmc-root" });
    rmSync(join(dir, "mounted/root"));
    const missing = await rejection(store.get({ kind: "site-bmc-root" }));
    expect(missing.message).toBe(
      `${join(dir, "mounted/root")}: does not exist (inventory.credentials.siteBmcRootPasswordFile)`,
    );
  });
});

describe("MemoryCredentialStore", () => {
  it("normalises keys like the file store", async () => {
    const store = new MemoryCredentialStore();
    await store.set({ kind: "bmc-factory", mac: "aabbccddee01" }, { username: "root", password: SECRET });
    expect(await store.get({ kind: "bmc-factory", mac: "AA-BB-CC-DD-EE-01" })).toEqual({
      username: "root",
      password: SECRET,
    });
    expect(await store.list()).toEqual([{ kind: "bmc-factory", mac: "AA:BB:CC:DD:EE:01" }]);
    await store.delete({ kind: "bmc-factory", mac: "AA:BB:CC:DD:EE:01" });
    expect(await store.list()).toEqual([]);
  });
});
