import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCredentialStore } from "@racksmith/server";
import { describe, expect, it } from "vitest";
import { cli, cliJson } from "./support/runCliForTest.js";

const SECRET = "S1te-R00t-Secret";
const POSIX = process.platform !== "win32";

/** A project directory with a password file (and optionally a config). */
function project(config?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-credentials-"));
  writeFileSync(join(dir, "password"), `${SECRET}\n`, { mode: 0o600 });
  if (config !== undefined) writeFileSync(join(dir, "racksmith.yaml"), config);
  return dir;
}

const everyFile = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== "password")
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
    .join("\n");

describe("racksmith credentials", () => {
  it("init creates a private key and directory once", async () => {
    const dir = project();
    const init = await cli(["credentials", "init"], dir);
    expect(init.code, init.stderr).toBe(0);
    const keyFile = join(dir, ".racksmith/credentials.key");
    expect(init.stdout).toContain(`created ${keyFile} (mode 0600)`);
    if (POSIX) {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, ".racksmith/credentials")).mode & 0o777).toBe(0o700);
    }
    const again = await cli(["credentials", "init"], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `racksmith: credentials key file ${keyFile} already exists; a new key would make the stored secrets unreadable [credentials_key_exists]\n`,
    );
  });

  it("sets site, vendor and per-BMC credentials from password files, encrypted; list prints keys only", async () => {
    const dir = project();
    for (const argv of [
      ["site-bmc-root", "--username", "root"],
      ["factory-default", "--vendor", "Dell", "--username", "root"],
      ["bmc", "--mac", "aabbccddee01", "--username", "admin"],
    ]) {
      const set = await cli(["credentials", "set", ...argv, "--password-file", "password"], dir);
      expect(set.code, set.stderr).toBe(0);
    }
    expect(
      (
        await cli(
          [
            "credentials",
            "set",
            "bmc",
            "--mac",
            "aabbccddee02",
            "--username",
            "u",
            "--password-file",
            "password",
            "--json",
          ],
          dir,
        )
      ).stdout,
    ).toBe(`${JSON.stringify({ kind: "bmc", vendor: null, mac: "AA:BB:CC:DD:EE:02" }, null, 2)}\n`);
    const listed = await cliJson<unknown[]>(["credentials", "list"], dir);
    expect(listed).toEqual([
      { kind: "bmc", vendor: null, mac: "AA:BB:CC:DD:EE:01", source: "store", file: null },
      { kind: "bmc", vendor: null, mac: "AA:BB:CC:DD:EE:02", source: "store", file: null },
      { kind: "factory-default", vendor: "dell", mac: null, source: "store", file: null },
      { kind: "site-bmc-root", vendor: null, mac: null, source: "store", file: null },
    ]);
    const table = await cli(["credentials", "list"], dir);
    expect(table.stdout.split("\n")[0]).toMatch(/^KIND\s+VENDOR\s+MAC\s+SOURCE\s+FILE$/);
    expect(table.stdout + JSON.stringify(listed)).not.toContain(SECRET);
    expect(table.stdout).not.toContain("admin");
    expect(everyFile(dir)).not.toContain(SECRET);
    // What the CLI stored is what the service reads.
    const store = new FileCredentialStore({
      directory: join(dir, ".racksmith/credentials"),
      keyFile: join(dir, ".racksmith/credentials.key"),
    });
    expect(await store.get({ kind: "bmc", mac: "AA:BB:CC:DD:EE:01" })).toEqual({
      username: "admin",
      password: SECRET,
    });
  });

  it.each([
    [
      ["set", "bmc", "--mac", "nope", "--username", "u", "--password-file", "password"],
      '--mac: mac "nope" is not a MAC address',
    ],
    [
      ["set", "factory-default", "--vendor", "a/b", "--username", "u", "--password-file", "password"],
      '--vendor: vendor "a/b" must be',
    ],
    [["set", "site-bmc-root", "--username", "u"], "required option '--password-file <file>' not specified"],
    [
      ["set", "site-bmc-root", "--username", "u", "--password-file", "nope"],
      "--password-file: cannot read nope: ENOENT",
    ],
    [
      ["set", "site-bmc-root", "--username", "u", "--password-file", "empty"],
      "--password-file: empty is empty",
    ],
    [["set", "teapot"], "unknown command 'teapot'"],
  ])("%j is a usage error", async (argv, message) => {
    const dir = project();
    writeFileSync(join(dir, "empty"), "\n");
    const run = await cli(["credentials", ...argv], dir);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toContain(message);
  });

  it.skipIf(!POSIX)("refuses a key file others can read, naming the file and the chmod", async () => {
    const dir = project();
    await cli(
      ["credentials", "set", "site-bmc-root", "--username", "root", "--password-file", "password"],
      dir,
    );
    const keyFile = join(dir, ".racksmith/credentials.key");
    chmodSync(keyFile, 0o644);
    const listed = await cli(
      [
        "credentials",
        "set",
        "bmc",
        "--mac",
        "aabbccddee01",
        "--username",
        "u",
        "--password-file",
        "password",
      ],
      dir,
    );
    expect(listed.code).toBe(1);
    expect(listed.stderr).toBe(
      `racksmith: ${keyFile} is accessible by group or others (mode 0644); run: chmod 600 ${keyFile} [credentials_insecure_permissions]\n`,
    );
  });

  it("uses the config's paths (relative to the config file) and lists mounted secrets as read-only files", async () => {
    const dir = project(
      [
        "inventory:",
        "  credentials:",
        "    directory: state/secrets",
        "    keyFile: state/key",
        "    factoryDefaults:",
        "      lenovo: { username: USERID, passwordFile: mounted/lenovo }",
      ].join("\n"),
    );
    mkdirSync(join(dir, "mounted"));
    writeFileSync(join(dir, "mounted/lenovo"), "PASSW0RD", { mode: 0o600 });
    mkdirSync(join(dir, "elsewhere"));
    const run = (...argv: string[]) =>
      cli(["credentials", ...argv, "--config", "../racksmith.yaml"], join(dir, "elsewhere"));
    expect(
      (await run("set", "site-bmc-root", "--username", "root", "--password-file", "../password")).code,
    ).toBe(0);
    expect(existsSync(join(dir, "state/key"))).toBe(true);
    expect(readdirSync(join(dir, "state/secrets"))).toEqual(["site-bmc-root.secret"]);
    const listed = await run("list", "--json");
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        kind: "factory-default",
        vendor: "lenovo",
        mac: null,
        source: "file",
        file: join(dir, "mounted/lenovo"),
      },
      { kind: "site-bmc-root", vendor: null, mac: null, source: "store", file: null },
    ]);
    const refused = await run(
      "set",
      "factory-default",
      "--vendor",
      "Lenovo",
      "--username",
      "u",
      "--password-file",
      "../password",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("comes from");
    expect(refused.stderr).toContain("[credential_read_only]");
  });
});
