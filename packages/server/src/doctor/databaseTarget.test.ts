import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import { type DatabaseTarget, databaseTarget, postgresEndpoint } from "./databaseTarget.js";
import { localUrl } from "./racksmithProbe.js";

function loaded(database: Partial<LoadedConfig["config"]["database"]> = {}): LoadedConfig {
  const config = structuredClone(DEFAULT_CONFIG);
  config.database = { ...config.database, ...database };
  return { config, file: "/etc/racksmith/racksmith.yaml", baseDir: "/etc/racksmith" };
}

const FLAG = "postgres://flag@db/a";
const CONFIGURED = "postgres://config@db/b";
const ENV = "postgres://env@db/c";

describe("databaseTarget", () => {
  it.each<[string, Parameters<typeof databaseTarget>[0], LoadedConfig, DatabaseTarget]>([
    [
      "--database-url beats everything",
      { databaseUrl: FLAG, dataDir: "d", cwd: "/home/op", env: { RACKSMITH_DATABASE_URL: ENV } },
      loaded({ url: CONFIGURED, schema: "site_a" }),
      { kind: "postgres", url: FLAG, source: "--database-url", schema: "site_a" },
    ],
    [
      "database.url beats the environment",
      { cwd: "/home/op", env: { RACKSMITH_DATABASE_URL: ENV } },
      loaded({ url: CONFIGURED }),
      { kind: "postgres", url: CONFIGURED, source: "database.url", schema: undefined },
    ],
    [
      "RACKSMITH_DATABASE_URL",
      { cwd: "/home/op", env: { RACKSMITH_DATABASE_URL: ENV } },
      loaded(),
      { kind: "postgres", url: ENV, source: "RACKSMITH_DATABASE_URL", schema: undefined },
    ],
    [
      "--data-dir is relative to where doctor runs",
      { dataDir: "data", cwd: "/home/op", env: { RACKSMITH_DATABASE_URL: "" } },
      loaded(),
      { kind: "embedded", dataDir: "/home/op/data", source: "--data-dir" },
    ],
    [
      "database.dataDir is relative to the config file",
      { cwd: "/home/op", env: {} },
      loaded(),
      { kind: "embedded", dataDir: "/etc/racksmith/.racksmith/data", source: "database.dataDir" },
    ],
  ])("%s", (_name, options, config, expected) => {
    expect(databaseTarget(options, config)).toEqual(expected);
  });
});

describe("postgresEndpoint", () => {
  it.each([
    ["postgres://racksmith:hunter2@127.0.0.1:1/x", "127.0.0.1:1"],
    ["postgresql://db.example/racksmith", "db.example:5432"],
    ["postgres://u@[::1]:6432/x", "[::1]:6432"],
    ["postgres:///racksmith?host=/run/postgresql", "/run/postgresql:5432"],
    ["not a url", "an unparsable URL"],
  ])("%s → %s", (url, endpoint) => {
    expect(postgresEndpoint(url)).toBe(endpoint);
  });
});

describe("localUrl", () => {
  it.each([
    [{ host: "127.0.0.1", port: 8080 }, "http://127.0.0.1:8080/healthz"],
    [{ host: "0.0.0.0", port: 8080 }, "http://127.0.0.1:8080/healthz"],
    [{ host: "::", port: 8080 }, "http://[::1]:8080/healthz"],
    [{ host: "::1", port: 8080 }, "http://[::1]:8080/healthz"],
    [{ host: "racksmith.local", port: 80 }, "http://racksmith.local:80/healthz"],
  ])("%j → %s", (address, url) => {
    expect(localUrl(address, "/healthz")).toBe(url);
  });
});
