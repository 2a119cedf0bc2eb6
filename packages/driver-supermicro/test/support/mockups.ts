import { fileURLToPath } from "node:url";
import { RedfishClient, silentLogger } from "@racksmith/core";
import {
  type JsonObject,
  type MockupBehavior,
  MockupServer,
  type MockupServerOptions,
  type MockupService,
} from "@racksmith/testkit";
import { type SupermicroDriver, supermicroDriver } from "../../src/index.js";
import { SUPERMICRO_BEHAVIORS } from "../../src/testing/index.js";

/** The package's own mockups, by folder name. */
export const MODELS = ["sys-821ge-tnhr", "sys-121h-tnr"] as const;
export type BundledModel = (typeof MODELS)[number];

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

export function mockupDir(model: BundledModel): string {
  return fileURLToPath(new URL(`../../mockups/${model}`, import.meta.url));
}

export const CREDENTIALS = { username: "root", password: "racksmith" } as const;

export interface RunningBmc {
  server: MockupServer;
  client: RedfishClient;
  driver: SupermicroDriver;
  stop(): Promise<void>;
}

/** A mockup server with the Supermicro behaviors and a driver connected to it (no retries: errors show). */
export async function startBmc(
  root: string,
  options: {
    settings?: Record<string, unknown>;
    /** Behaviors that run before Supermicro's (recorders, injected refusals). */
    before?: readonly MockupBehavior[];
  } & Partial<MockupServerOptions> = {},
): Promise<RunningBmc> {
  const { settings, before = [], ...serverOptions } = options;
  const server = await MockupServer.start({
    root,
    auth: "basic",
    credentials: CREDENTIALS,
    behaviors: [...before, ...SUPERMICRO_BEHAVIORS],
    taskDurationMs: 0,
    ...serverOptions,
  });
  const client = new RedfishClient({ address: server.url, credentials: CREDENTIALS, retry: { retries: 0 } });
  const driver = supermicroDriver.create(client, {
    logger: silentLogger,
    ...(settings ? { settings } : {}),
  }) as SupermicroDriver;
  return {
    server,
    client,
    driver,
    async stop() {
      await client.close();
      await server.stop();
    },
  };
}

/** Saves resources now; the returned function puts them back (tests of one file share a server). */
export async function saveResources(service: MockupService, paths: readonly string[]): Promise<() => void> {
  const saved = await Promise.all(paths.map(async (path) => [path, await service.read(path)] as const));
  return () => {
    for (const [path, body] of saved) {
      if (body) service.write(path, body as JsonObject);
      else service.remove(path);
    }
  };
}
