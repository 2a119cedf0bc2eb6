import { type Logger, RedfishClient, silentLogger } from "@racksmith/core";
import {
  type JsonObject,
  type MockupBehavior,
  type MockupHookContext,
  MockupServer,
  type MockupService,
} from "@racksmith/testkit";
import { LenovoXccDriver } from "../../src/index.js";
import { XCC_BEHAVIORS } from "../../src/testing/index.js";

export const CREDENTIALS = { username: "root", password: "racksmith" };

/** A write as it reached the mockup: method, path, JSON body and the If-Match header. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: JsonObject;
  ifMatch: string | undefined;
}

/** Records every PATCH and POST (actions included) before any other behavior answers it. */
function requestRecorder(requests: RecordedRequest[]): MockupBehavior {
  const record = ({ request, body }: MockupHookContext): undefined => {
    requests.push({
      method: request.method,
      path: request.pathname,
      body,
      ifMatch: request.headers["if-match"],
    });
    return undefined;
  };
  return {
    name: "test-recorder",
    patch: { "/redfish/v1/**": record },
    post: { "/redfish/v1/**": record },
    actions: { "/redfish/v1/**": record },
  };
}

/** A captured logger, to assert what the driver warns about. */
export function memoryLogger(): Logger & {
  warnings: Array<{ fields: Record<string, unknown>; message: string }>;
} {
  const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
  return { ...silentLogger, warn: (fields, message) => void warnings.push({ fields, message }), warnings };
}

/** The driver with no real pause between ForceOff and On. */
export class TestXccDriver extends LenovoXccDriver {
  readonly pauses: number[] = [];
  protected override async pause(ms: number): Promise<void> {
    this.pauses.push(ms);
  }
}

export interface XccHarness {
  server: MockupServer;
  service: MockupService;
  client: RedfishClient;
  /** PATCH/POST requests since the last `reset()`. */
  requests: RecordedRequest[];
  /** Writes to paths containing this text, in order. */
  writesTo(pathPart: string): RecordedRequest[];
  driver(options?: { settings?: Record<string, unknown>; logger?: Logger }): TestXccDriver;
  /** Restores the resources the driver writes and forgets recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Paths the driver changes; restored before each test so tests do not depend on each other. */
const MUTABLE_PATHS = [
  "/redfish/v1/Systems/1",
  "/redfish/v1/Systems/1/Pending",
  "/redfish/v1/Systems/1/Bios",
  "/redfish/v1/Systems/1/Bios/Pending",
  "/redfish/v1/Systems/1/BootOptions",
  "/redfish/v1/Systems/1/Oem/Lenovo/BootSettings/BootOrder.NetworkBootOrder",
  "/redfish/v1/Managers/1",
  "/redfish/v1/Managers/1/Oem/Lenovo/Security",
  "/redfish/v1/Managers/1/EthernetInterfaces/ToHost",
  "/redfish/v1/AccountService",
  "/redfish/v1/UpdateService/FirmwareInventory/UEFI",
  "/redfish/v1/Systems/1/LogServices",
  "/redfish/v1/Systems/1/LogServices/SEL",
];

/** One mockup server per test file, with the XCC behaviors and a request recorder in front of them. */
export async function startXcc(mockup: string, extra: readonly MockupBehavior[] = []): Promise<XccHarness> {
  const requests: RecordedRequest[] = [];
  const server = await MockupServer.start({
    root: mockup,
    auth: "basic",
    credentials: CREDENTIALS,
    behaviors: [requestRecorder(requests), ...extra, ...XCC_BEHAVIORS],
  });
  const { service } = server;
  const initial = new Map<string, JsonObject>();
  for (const path of MUTABLE_PATHS) {
    const body = await service.read(path);
    if (body) initial.set(path, body);
  }
  const client = new RedfishClient({ address: server.url, credentials: CREDENTIALS, retry: { retries: 0 } });
  return {
    server,
    service,
    client,
    requests,
    writesTo: (pathPart) => requests.filter((r) => r.path.includes(pathPart)),
    driver: (options = {}) =>
      new TestXccDriver(client, {
        logger: options.logger ?? silentLogger,
        ...(options.settings ? { settings: options.settings } : {}),
      }),
    reset() {
      for (const [path, body] of initial) service.write(path, body);
      requests.length = 0;
    },
    async close() {
      await client.close();
      await server.stop();
    },
  };
}
