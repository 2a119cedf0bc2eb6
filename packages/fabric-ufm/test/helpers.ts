import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@racksmith/core";
import { UfmClient, type UfmClientAuth, type UfmClientOptions } from "../src/client/index.js";
import { UfmInfiniBandFabric } from "../src/fabric/index.js";
import type { UfmSimulator } from "../src/simulator/index.js";

export const HOST_A = "248a0703009c7e82";
export const HOST_B = "248a0703009c7e83";
export const HOST_C = "0c42a10300a1b2c3";

export const PORTS = [
  { guid: HOST_A, systemName: "host-a" },
  { guid: HOST_B, systemName: "host-b" },
  { guid: HOST_C, systemName: "host-c", logicalState: "Down" },
];

export const SETTINGS = {
  pkeyRanges: [{ start: 0x100, end: 0x200 }],
  qos: { mtu: 4, rateLimit: 200, serviceLevel: 0 },
  monitorIntervalMs: 60_000,
};

export function clientFor(
  simulator: UfmSimulator,
  auth: UfmClientAuth = { mode: "token", token: "tok" },
  options: Partial<UfmClientOptions> = {},
): UfmClient {
  return new UfmClient({ endpoint: simulator.url, auth, timeoutMs: 2_000, ...options });
}

export function fabricFor(
  simulator: UfmSimulator,
  options: Partial<UfmClientOptions> = {},
): UfmInfiniBandFabric {
  return new UfmInfiniBandFabric(clientFor(simulator, options.auth, options), SETTINGS);
}

/** A logger that keeps every line, to check what reaches the logs. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (fields: Record<string, unknown>, message: string): void => {
    lines.push(`${message} ${JSON.stringify(fields)}`);
  };
  return { lines, debug: log, info: log, warn: log, error: log };
}

/** Secrets written to throwaway files, as an operator's config names them. */
export function secretFiles(files: Record<string, string>): { dir: string; paths: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "ufm-secrets-"));
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    paths[name] = join(dir, name);
    writeFileSync(paths[name], content);
  }
  return { dir, paths };
}

export interface TestCertificates {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A second CA nobody signed with, to see verification fail. */
  otherCa: string;
}

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate (EC keys: fast). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "ufm-certs-"));
  const at = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  for (const ca of ["ca", "other-ca"]) {
    openssl(
      "req",
      "-x509",
      ...ec,
      "-keyout",
      `${ca}.key`,
      "-out",
      `${ca}.crt`,
      "-days",
      "2",
      "-subj",
      `/CN=${ca}`,
    );
  }
  const sign = (name: string, cn: string, extensions: string): void => {
    openssl("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`);
    writeFileSync(at(`${name}.ext`), extensions);
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.crt`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    );
  };
  sign("server", "ufm.test", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  sign("client", "racksmith", "extendedKeyUsage=clientAuth\n");
  const read = (name: string): string => readFileSync(at(name), "utf8");
  return {
    dir,
    ca: read("ca.crt"),
    serverCert: read("server.crt"),
    serverKey: read("server.key"),
    clientCert: read("client.crt"),
    clientKey: read("client.key"),
    otherCa: read("other-ca.crt"),
  };
}
