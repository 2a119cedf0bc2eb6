import { probeService, RedfishClient, silentLogger } from "@racksmith/core";
import { type JsonObject, type MockupAuthMode, type MockupBehavior, MockupServer } from "@racksmith/testkit";
import { NvidiaDpuDriver } from "../../src/index.js";
import { BLUEFIELD_BEHAVIORS } from "../../src/testing/index.js";

export const CREDENTIALS = { username: "root", password: "Bmc-Secret-42!" };

/** A write the driver sent, as the BMC received it (recorded before any vendor behavior answers). */
export interface RecordedWrite {
  method: "PATCH" | "POST";
  path: string;
  body: JsonObject;
}

export interface TestBmc {
  server: MockupServer;
  client: RedfishClient;
  driver: NvidiaDpuDriver;
  /** Every PATCH and POST (actions included) since the last `clearWrites()`. */
  writes: RecordedWrite[];
  clearWrites(): void;
  /** A driver for the same BMC with other operator settings. */
  driverWith(settings: Readonly<Record<string, unknown>>): Promise<NvidiaDpuDriver>;
  /** Reboots the DPU as the lifecycle would (the mockup then plays out what its UEFI applies). */
  reboot(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Serves a mockup with the BlueField behaviors (after `first`, which may take requests over) and a recorder, and
 * connects a driver to it over HTTP with basic auth.
 */
export async function startBmc(
  root: string,
  options: { first?: readonly MockupBehavior[]; auth?: MockupAuthMode } = {},
): Promise<TestBmc> {
  const writes: RecordedWrite[] = [];
  const record =
    (method: RecordedWrite["method"]) =>
    ({ request, body }: { request: { pathname: string }; body: JsonObject }) => {
      writes.push({ method, path: request.pathname, body });
      return undefined;
    };
  const recorder: MockupBehavior = {
    name: "recorder",
    patch: { "/redfish/v1/**": record("PATCH") },
    post: { "/redfish/v1/**": record("POST") },
    actions: { "/redfish/v1/**": record("POST") },
  };
  const server = await MockupServer.start({
    root,
    auth: options.auth ?? "basic",
    credentials: CREDENTIALS,
    behaviors: [recorder, ...(options.first ?? []), ...BLUEFIELD_BEHAVIORS],
  });
  const client = new RedfishClient({ address: server.url, credentials: CREDENTIALS, retry: { retries: 0 } });
  const driverWith = async (settings?: Readonly<Record<string, unknown>>) =>
    new NvidiaDpuDriver(client, {
      logger: silentLogger,
      probe: await probeService(client),
      ...(settings ? { settings } : {}),
    });
  const driver = await driverWith();
  return {
    server,
    client,
    driver,
    writes,
    clearWrites: () => void writes.splice(0),
    driverWith,
    reboot: () => driver.power("ForceRestart"),
    stop: async () => {
      await client.close();
      await server.stop();
    },
  };
}
