import { chmodSync } from "node:fs";
import { join } from "node:path";
import type { PluginRegistry } from "@racksmith/core";
import type { InfiniBandFabricDefinition } from "@racksmith/core/infiniband";
import { describe, expect, it } from "vitest";
import plugin, { parseUfmFabricConfig, ufmFabric } from "../src/index.js";
import { UfmSimulator } from "../src/simulator/index.js";
import { HOST_A, makeCertificates, PORTS, recordingLogger, secretFiles } from "./helpers.js";

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toMatchObject({ code: "config_invalid", status: "INVALID_ARGUMENT" });
    return [...(error as { problems: string[] }).problems];
  }
  throw new Error("expected a config error");
}

describe("fabrics.infiniband config", () => {
  it("applies the defaults", () => {
    expect(parseUfmFabricConfig({ endpoint: "https://ufm.example", auth: "token", tokenFile: "/t" })).toEqual(
      {
        endpoint: "https://ufm.example",
        auth: "token",
        tokenFile: "/t",
        allowInsecure: false,
        timeoutMs: 10_000,
        pkeyRanges: [],
        qos: { mtu: 4, rateLimit: 200, serviceLevel: 0 },
        monitorIntervalMs: 60_000,
      },
    );
  });

  it("reads pkey ranges in hex or decimal, end exclusive", () => {
    const config = parseUfmFabricConfig({
      endpoint: "https://ufm.example",
      auth: "basic",
      username: "admin",
      passwordFile: "/p",
      pkeyRanges: [
        { start: "0x100", end: "0x200" },
        { start: 512, end: "1024" },
      ],
      qos: { rateLimit: 100 },
    });
    expect(config.pkeyRanges).toEqual([
      { start: 0x100, end: 0x200 },
      { start: 512, end: 1024 },
    ]);
    expect(config.qos).toEqual({ mtu: 4, rateLimit: 100, serviceLevel: 0 });
  });

  it("names every bad key at once", () => {
    const problems = problemsOf(() =>
      parseUfmFabricConfig({
        endpoint: "ftp://ufm",
        auth: "kerberos",
        timeoutMs: "soon",
        qos: { mtu: 3, serviceLevel: 16 },
        pkeyRanges: [{ start: "0x100" }],
        passwrd: "x",
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'fabrics.infiniband.endpoint: must match pattern "^https?://"',
        'fabrics.infiniband.auth: must be one of "token", "basic", "mtls"',
        "fabrics.infiniband.timeoutMs: must be integer",
        "fabrics.infiniband.qos.mtu: must be one of 2, 4",
        "fabrics.infiniband.qos.serviceLevel: must be <= 15",
        "fabrics.infiniband.pkeyRanges[0]: missing required key end",
        "unknown key fabrics.infiniband.passwrd",
      ]),
    );
  });

  it("checks what the schema cannot: auth keys, endpoint, ranges", () => {
    const problems = problemsOf(() =>
      parseUfmFabricConfig({
        endpoint: "http://admin:hunter2@ufm.example",
        auth: "mtls",
        certFile: "/c",
        tokenFile: "/t",
        pkeyRanges: [
          { start: "0x200", end: "0x100" },
          { start: "0x100", end: "0x8000" },
          { start: "0x10", end: "0x20" },
          { start: "0x18", end: "0x30" },
          { start: "0xzz", end: 3 },
        ],
      }),
    );
    expect(problems).toEqual([
      "fabrics.infiniband.endpoint: must not contain credentials (use username/passwordFile)",
      "fabrics.infiniband.endpoint: auth mtls needs an https:// endpoint",
      "fabrics.infiniband: auth mtls needs keyFile",
      "fabrics.infiniband.tokenFile: only used with auth token (auth is mtls)",
      "fabrics.infiniband.pkeyRanges[0].end: must be greater than start (the end is exclusive)",
      "fabrics.infiniband.pkeyRanges[1].end: must be at most 0x7fff (exclusive)",
      "fabrics.infiniband.pkeyRanges[3]: overlaps pkeyRanges[2]",
      'fabrics.infiniband.pkeyRanges[4].start: "0xzz" is not a pkey (0x-hex or decimal)',
    ]);
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  it("never echoes a secret written into the config by mistake", () => {
    const problems = problemsOf(() =>
      parseUfmFabricConfig({ endpoint: "https://u", auth: "token", tokenFile: "/t", password: "hunter2" }),
    );
    expect(problems).toEqual(["unknown key fabrics.infiniband.password"]);
  });
});

describe("the ufm fabric definition", () => {
  const context = { logger: recordingLogger() };

  it("is what the plugin registers", async () => {
    const registered: InfiniBandFabricDefinition[] = [];
    // Only the InfiniBand hook matters here; any other hook the core grows is a no-op.
    const registry = new Proxy({} as PluginRegistry, {
      get: (_target, key) =>
        key === "infinibandFabric"
          ? (definition: InfiniBandFabricDefinition) => void registered.push(definition)
          : () => undefined,
    });
    await plugin.register(registry);
    expect(registered).toEqual([ufmFabric]);
    expect(plugin).toMatchObject({ name: "@racksmith/fabric-ufm", version: "0.1.0", apiVersion: 1 });
  });

  it("creates a working fabric from files (token, relative to baseDir) with its settings", async () => {
    const simulator = await UfmSimulator.start({ ports: PORTS, auth: { token: "from-file" } });
    const { dir } = secretFiles({ token: "from-file\n" });
    const fabric = await ufmFabric.create(
      {
        endpoint: simulator.url,
        auth: "token",
        tokenFile: "token",
        pkeyRanges: [{ start: "0x100", end: "0x180" }],
        monitorIntervalMs: 5_000,
      },
      { ...context, baseDir: dir },
    );
    expect(fabric.settings).toEqual({
      pkeyRanges: [{ start: 0x100, end: 0x180 }],
      qos: { mtu: 4, rateLimit: 200, serviceLevel: 0 },
      monitorIntervalMs: 5_000,
    });
    await fabric.bindGuids(0x101, [HOST_A]);
    expect(simulator.guidsIn(0x101)).toEqual([HOST_A]);
    await fabric.close();
    await simulator.stop();
  });

  it("creates a basic-auth fabric, and an mTLS one from certificate files", async () => {
    const basicSim = await UfmSimulator.start({
      ports: PORTS,
      auth: { username: "admin", password: "pw-file" },
    });
    const { paths } = secretFiles({ password: "pw-file\n" });
    const basic = await ufmFabric.create(
      { endpoint: basicSim.url, auth: "basic", username: "admin", passwordFile: paths.password },
      context,
    );
    await expect(basic.versions()).resolves.toMatchObject({ manager: "UFM" });
    await basic.close();
    await basicSim.stop();

    const certs = makeCertificates();
    const tlsSim = await UfmSimulator.start({
      ports: PORTS,
      tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca },
      auth: { clientCert: true },
    });
    const mtls = await ufmFabric.create(
      {
        endpoint: tlsSim.url,
        auth: "mtls",
        certFile: "client.crt",
        keyFile: "client.key",
        caFile: "ca.crt",
      },
      { ...context, baseDir: certs.dir },
    );
    await expect(mtls.listPorts()).resolves.toHaveLength(3);
    expect(tlsSim.requests.at(-1)).toMatchObject({ auth: "mtls" });
    await mtls.close();
    await tlsSim.stop();
  });

  it("names the key of an unreadable or empty credential file, never its content", async () => {
    const failure = async (config: Record<string, unknown>): Promise<unknown> => {
      try {
        await ufmFabric.create(config, context);
      } catch (error) {
        return error;
      }
      throw new Error("expected create to fail");
    };
    const { paths } = secretFiles({ token: "   \n", secret: "do-not-show-me" });
    expect(await failure({ endpoint: "https://u", auth: "token", tokenFile: paths.token })).toMatchObject({
      code: "config_invalid",
      problems: [`fabrics.infiniband.tokenFile: ${paths.token} is empty`],
    });

    chmodSync(paths.secret as string, 0o000);
    const missing = await failure({
      endpoint: "https://u",
      auth: "basic",
      username: "u",
      passwordFile: join(paths.token as string, "..", "absent"),
      caFile: paths.secret,
    });
    const problems = (missing as { problems: string[] }).problems;
    expect(problems[0]).toMatch(/^fabrics\.infiniband\.passwordFile: cannot read .*absent \(ENOENT\)$/);
    // Root can read a 000 file; either way the content never shows.
    expect(JSON.stringify(missing)).not.toContain("do-not-show-me");
  });
});
