import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type RacksmithConfig } from "../config/index.js";
import { type SecretPath, secretPaths } from "./secretPaths.js";

const BASE = "/etc/racksmith";
const defaults: Array<Pick<SecretPath, "key" | "path" | "kind" | "createdLater">> = [
  {
    key: "inventory.credentials.keyFile",
    path: "/etc/racksmith/.racksmith/credentials.key",
    kind: "file",
    createdLater: true,
  },
  {
    key: "inventory.credentials.directory",
    path: "/etc/racksmith/.racksmith/credentials",
    kind: "directory",
    createdLater: true,
  },
];
const secret = (key: string, path: string): SecretPath => ({ key, path, kind: "file", createdLater: false });

describe("secretPaths", () => {
  it.each<[string, Partial<RacksmithConfig>, SecretPath[]]>([
    ["the defaults: the store's key file and directory", {}, defaults],
    [
      "inventory paths, relative to the config file or absolute",
      {
        inventory: {
          credentials: {
            keyFile: "/secure/key",
            directory: "store",
            siteBmcRootPasswordFile: "secrets/root",
            factoryDefaults: {
              dell: { username: "root", passwordFile: "secrets/dell" },
              hpe: { username: "Administrator", passwordFile: "/run/secrets/hpe" },
            },
          },
        },
      },
      [
        { key: "inventory.credentials.keyFile", path: "/secure/key", kind: "file", createdLater: true },
        {
          key: "inventory.credentials.directory",
          path: "/etc/racksmith/store",
          kind: "directory",
          createdLater: true,
        },
        secret("inventory.credentials.siteBmcRootPasswordFile", "/etc/racksmith/secrets/root"),
        secret("inventory.credentials.factoryDefaults.dell.passwordFile", "/etc/racksmith/secrets/dell"),
        secret("inventory.credentials.factoryDefaults.hpe.passwordFile", "/run/secrets/hpe"),
      ],
    ],
    [
      "fabric sections: every …File but caFile and certFile",
      {
        fabrics: {
          infiniband: {
            endpoint: "https://ufm",
            auth: "mtls",
            passwordFile: "ufm/password",
            tokenFile: "ufm/token",
            keyFile: "ufm/client.key",
            certFile: "ufm/client.crt",
            caFile: "ufm/ca.pem",
            timeoutMs: 1000,
          },
          nvlink: { endpoint: "https://nmx", usernameFile: "nmx/user", passwordFile: "nmx/password" },
        },
      },
      [
        ...defaults,
        secret("fabrics.infiniband.passwordFile", "/etc/racksmith/ufm/password"),
        secret("fabrics.infiniband.tokenFile", "/etc/racksmith/ufm/token"),
        secret("fabrics.infiniband.keyFile", "/etc/racksmith/ufm/client.key"),
        secret("fabrics.nvlink.usernameFile", "/etc/racksmith/nmx/user"),
        secret("fabrics.nvlink.passwordFile", "/etc/racksmith/nmx/password"),
      ],
    ],
    [
      "a fabric key that is not a string path is not a file",
      { fabrics: { infiniband: { passwordFile: 42, tokenFile: "" } } },
      defaults,
    ],
  ])("%s", (_name, overrides, expected) => {
    expect(secretPaths({ ...structuredClone(DEFAULT_CONFIG), ...overrides }, BASE)).toEqual(expected);
  });
});
