import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { createNmxmFabric, NmxmConfigError, parseNmxmConfig } from "../src/index.js";
import { failure } from "./support.js";

const base = {
  endpoint: "https://nmxm.example:4010/",
  username: "admin",
  passwordFile: "/run/nmxm/password",
};

function problems(section: Record<string, unknown>): string[] {
  try {
    parseNmxmConfig(section);
  } catch (error) {
    expect(error).toBeInstanceOf(NmxmConfigError);
    expect((error as NmxmConfigError).code).toBe("config_invalid");
    return [...(error as NmxmConfigError).problems];
  }
  throw new Error("expected the config to be refused");
}

describe("fabrics.nvlink config", () => {
  it("applies NICo's defaults", () => {
    expect(parseNmxmConfig(base)).toEqual({
      ...base,
      endpoint: "https://nmxm.example:4010",
      allowInsecure: false,
      timeoutMs: 30_000,
      maxResponseBytes: 20 * 1024 * 1024,
      monitorIntervalMs: 60_000,
      operationTimeoutMs: 10_000,
      operationPollMs: 500,
    });
  });

  it("names the key of every problem", () => {
    const { endpoint: _, ...noEndpoint } = base;
    expect(problems(noEndpoint)).toEqual(["fabrics.nvlink: missing required key endpoint"]);
    expect(problems({ ...base, timeoutMs: "30s", allowInsecure: "yes" })).toEqual([
      "fabrics.nvlink.allowInsecure: must be a boolean",
      "fabrics.nvlink.timeoutMs: must be an integer",
    ]);
    expect(problems({ ...base, passwrd: "x" })[0]).toMatch(
      /^unknown key fabrics\.nvlink\.passwrd; allowed: /,
    );
    expect(problems({ ...base, operationPollMs: 1 })[0]).toContain("fabrics.nvlink.operationPollMs");
    expect(problems({ ...base, endpoint: "nmxm:4010" })[0]).toContain("fabrics.nvlink.endpoint");
    expect(problems({ ...base, endpoint: "ftp://nmxm" })[0]).toContain("scheme must be https or http");
    expect(problems({ ...base, caFile: "ca.pem", allowInsecure: true })[0]).toContain(
      "caFile and allowInsecure",
    );
    const { username: __, ...noUser } = base;
    expect(problems(noUser)).toEqual(["fabrics.nvlink: missing required key username (or usernameFile)"]);
    expect(problems({ ...base, usernameFile: "user" })).toEqual([
      "fabrics.nvlink: give only one of username and usernameFile",
    ]);
  });

  it("refuses credentials in the endpoint without repeating them", () => {
    const [problem] = problems({ ...base, endpoint: "https://admin:hunter2-secret@nmxm:4010" });
    expect(problem).toContain("fabrics.nvlink.endpoint: must not contain credentials");
    expect(problem).not.toContain("hunter2-secret");
  });

  it("reads credential files relative to the config folder and never quotes them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "racksmith-nmxm-config-"));
    await writeFile(join(dir, "user"), "operator\n");
    await writeFile(join(dir, "password"), "file-secret-123\n");
    await writeFile(join(dir, "ca.pem"), "not a certificate but file-secret-123");
    const section = { endpoint: "https://nmxm:4010", usernameFile: "user", passwordFile: "password" };
    const fabric = await createNmxmFabric(section, { logger: silentLogger, baseDir: dir });
    await fabric.close();

    const missing = await failure(
      createNmxmFabric({ ...section, passwordFile: "absent" }, { logger: silentLogger, baseDir: dir }),
    );
    expect(missing.message).toContain('fabrics.nvlink.passwordFile: cannot read "absent" (ENOENT)');

    const badCa = await failure(
      createNmxmFabric({ ...section, caFile: "ca.pem" }, { logger: silentLogger, baseDir: dir }),
    );
    expect(badCa.message).toContain("fabrics.nvlink.caFile");
    expect(badCa.message).not.toContain("file-secret-123");

    await writeFile(join(dir, "empty"), "\n");
    const empty = await failure(
      createNmxmFabric({ ...section, passwordFile: "empty" }, { logger: silentLogger, baseDir: dir }),
    );
    expect(empty.message).toContain("fabrics.nvlink.passwordFile");
  });
});
