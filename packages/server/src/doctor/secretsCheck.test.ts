import { describe, expect, it } from "vitest";
import { loadProject, POSIX, tempProject } from "./__fixtures__/project.js";
import { checkSecrets } from "./secretsCheck.js";

const KEY = "NDJOZXZlckRpc2Nsb3NlZEtleU1hdGVyaWFsMTIzNDU=\n";

async function secrets(config: string, entries: Parameters<typeof tempProject>[1] = {}) {
  const dir = tempProject(config, entries);
  const checks = await checkSecrets(loadProject(dir), dir);
  return checks.map(({ status, detail, fix }) => ({ status, detail, ...(fix ? { fix } : {}) }));
}

describe("checkSecrets", () => {
  it("a fresh clone: the key file and store not created yet is fine", async () => {
    expect(await secrets("plugins: []\n")).toEqual([
      {
        status: "ok",
        detail:
          "not created yet: .racksmith/credentials.key, .racksmith/credentials (`racksmith credentials init` creates them)",
      },
    ]);
  });

  it("private files and directories pass, and are named without their content", async () => {
    const checks = await secrets("inventory:\n  credentials:\n    siteBmcRootPasswordFile: secrets/root\n", {
      ".racksmith/credentials.key": { content: KEY, mode: 0o600 },
      ".racksmith/credentials": { directory: true, mode: 0o700 },
      "secrets/root": { content: "hunter2\n", mode: 0o400 },
    });
    expect(checks).toEqual([
      {
        status: "ok",
        detail: "private: .racksmith/credentials.key, .racksmith/credentials, secrets/root",
      },
    ]);
    expect(JSON.stringify(checks)).not.toContain("hunter2");
  });

  it.runIf(POSIX)(
    "a key file, store and password files others can read: one finding each, with its chmod",
    async () => {
      const checks = await secrets(
        [
          "inventory:",
          "  credentials:",
          "    factoryDefaults:",
          "      dell: { username: root, passwordFile: secrets/dell }",
          "fabrics:",
          "  infiniband: { endpoint: https://ufm, auth: token, tokenFile: ufm/token, caFile: ufm/ca.pem }",
        ].join("\n"),
        {
          ".racksmith/credentials.key": { content: KEY, mode: 0o644 },
          ".racksmith/credentials": { directory: true, mode: 0o755 },
          ".racksmith/credentials/site-bmc-root.secret": { content: "sealed", mode: 0o640 },
          "secrets/dell": { content: "calvin", mode: 0o600 },
          "ufm/token": { content: "t0ken", mode: 0o604 },
          "ufm/ca.pem": { content: "public", mode: 0o644 },
        },
      );
      expect(checks).toEqual([
        {
          status: "fail",
          detail:
            ".racksmith/credentials.key (inventory.credentials.keyFile) is readable by group and others (mode 0644)",
          fix: "chmod 600 .racksmith/credentials.key",
        },
        {
          status: "fail",
          detail:
            ".racksmith/credentials (inventory.credentials.directory) is readable by group and others (mode 0755)",
          fix: "chmod 700 .racksmith/credentials",
        },
        {
          status: "fail",
          detail: ".racksmith/credentials/site-bmc-root.secret is readable by group (mode 0640)",
          fix: "chmod 600 .racksmith/credentials/site-bmc-root.secret",
        },
        {
          status: "fail",
          detail: "ufm/token (fabrics.infiniband.tokenFile) is readable by others (mode 0604)",
          fix: "chmod 600 ufm/token",
        },
      ]);
    },
  );

  it("a named password file that does not exist, and a directory where a file belongs", async () => {
    expect(
      await secrets(
        "inventory:\n  credentials:\n    siteBmcRootPasswordFile: secrets/root\n    keyFile: keydir\n",
        { keydir: { directory: true, mode: 0o700 } },
      ),
    ).toEqual([
      {
        status: "fail",
        detail: "keydir (inventory.credentials.keyFile) is a directory, not a file",
        fix: "point inventory.credentials.keyFile in racksmith.yaml at a file",
      },
      {
        status: "fail",
        detail: "secrets/root (inventory.credentials.siteBmcRootPasswordFile) does not exist",
        fix: "create it (chmod 600), or fix inventory.credentials.siteBmcRootPasswordFile in racksmith.yaml",
      },
    ]);
  });

  it("stored secrets without their key file cannot be read", async () => {
    expect(
      await secrets("plugins: []\n", {
        ".racksmith/credentials": { directory: true, mode: 0o700 },
        ".racksmith/credentials/bmc-aabbccddeeff.secret": { content: "sealed", mode: 0o600 },
      }),
    ).toEqual([
      {
        status: "fail",
        detail:
          "1 stored secret(s) cannot be decrypted: the key file .racksmith/credentials.key (inventory.credentials.keyFile) does not exist",
        fix: "restore the key file from your backup, or set inventory.credentials.keyFile in racksmith.yaml to where it is",
      },
    ]);
  });
});
