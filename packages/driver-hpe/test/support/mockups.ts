import { fileURLToPath } from "node:url";
import { type BmcDriver, probeService, RedfishClient, silentLogger } from "@racksmith/core";
import { type JsonObject, type MockupBehavior, MockupServer } from "@racksmith/testkit";
import { hpeDriverDefinition } from "../../src/index.js";
import { hpeMockupBehaviors } from "../../src/testing/index.js";

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** The package's own mockups: an iLO 5 (AMD) and an iLO 6 (Intel) ProLiant. */
export const MOCKUPS = {
  gen10: fileURLToPath(new URL("../../mockups/proliant-dl385-gen10-plus-v2", import.meta.url)),
  gen11: fileURLToPath(new URL("../../mockups/proliant-dl380-gen11", import.meta.url)),
} as const;

export const CREDENTIALS = { username: "root", password: "racksmith" };

/** A write that reached the mockup: PATCH bodies and POST bodies (actions included), in order. */
export interface RecordedWrite {
  method: "PATCH" | "POST";
  path: string;
  body: JsonObject;
}

export interface HpeBmc {
  server: MockupServer;
  driver: BmcDriver;
  client: RedfishClient;
  /** The resource as the BMC holds it now. */
  read(path: string): Promise<JsonObject>;
  /** Writes since the last call (and forgets them). */
  takeWrites(): RecordedWrite[];
  /** Puts the resources tests change back as the mockup has them, and forgets recorded writes. */
  reset(): Promise<void>;
  /** A host reboot through the driver (iLO applies staged BIOS and boot order). */
  reboot(): Promise<void>;
  stop(): Promise<void>;
}

/** Resources the driver writes; `reset()` restores them between tests. */
const CHANGED_BY_TESTS = [
  "/redfish/v1/Systems/1",
  "/redfish/v1/Systems/1/Bios",
  "/redfish/v1/Systems/1/Bios/settings",
  "/redfish/v1/Systems/1/Bios/oem/hpe/boot",
  "/redfish/v1/Systems/1/Bios/oem/hpe/boot/settings",
  "/redfish/v1/Managers/1",
  "/redfish/v1/Managers/1/NetworkProtocol",
  "/redfish/v1/AccountService",
  "/redfish/v1/UpdateService",
];

function recorder(writes: RecordedWrite[]): MockupBehavior {
  const record =
    (method: RecordedWrite["method"]) =>
    ({ request, body }: { request: { pathname: string }; body: JsonObject }) => {
      writes.push({ method, path: request.pathname, body });
      return undefined;
    };
  return {
    name: "test-recorder",
    patch: { "/**": record("PATCH") },
    post: { "/**": record("POST") },
    actions: { "/**": record("POST") },
  };
}

/** One mockup server per test file, with the HPE behaviors, a write recorder and a driver on it. */
export async function startHpeBmc(
  root: string,
  options: { behaviors?: readonly MockupBehavior[]; settings?: Record<string, unknown> } = {},
): Promise<HpeBmc> {
  const writes: RecordedWrite[] = [];
  const server = await MockupServer.start({
    root,
    auth: "basic",
    credentials: CREDENTIALS,
    behaviors: [recorder(writes), ...(options.behaviors ?? []), ...hpeMockupBehaviors],
  });
  const client = new RedfishClient({ address: server.url, credentials: CREDENTIALS, retry: { retries: 0 } });
  const probe = await probeService(client);
  const driver = hpeDriverDefinition.create(client, {
    logger: silentLogger,
    probe,
    ...(options.settings ? { settings: options.settings } : {}),
  });
  return {
    server,
    driver,
    client,
    async read(path) {
      const body = await server.service.read(path);
      if (!body) throw new Error(`the mockup has no resource at ${path}`);
      return body;
    },
    takeWrites() {
      return writes.splice(0, writes.length);
    },
    async reset() {
      for (const path of CHANGED_BY_TESTS) {
        const document = await server.tree.read(path);
        if (document?.kind === "json") server.service.write(path, document.body);
      }
      writes.length = 0;
    },
    async reboot() {
      await driver.power("ForceRestart");
    },
    async stop() {
      await client.close();
      await server.stop();
    },
  };
}

/** A field deep inside a JSON resource (tests read state back from the mockup). */
export { field as at } from "../../src/testing/json.js";
