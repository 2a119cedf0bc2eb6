import {
  type BiosValue,
  type BmcDriver,
  probeService,
  RedfishClient,
  type ServiceProbe,
  silentLogger,
} from "@racksmith/core";
import {
  type JsonObject,
  type MockupAuthMode,
  type MockupBehavior,
  type MockupResponse,
  MockupServer,
  type MockupService,
} from "@racksmith/testkit";
import { DellIdracDriver, dellDriver } from "../../src/index.js";
import { type DellMockupOptions, dellMockupBehaviors } from "../../src/testing/index.js";

export const CREDENTIALS = { username: "root", password: "racksmith" };
export const SYSTEM = "/redfish/v1/Systems/System.Embedded.1";
export const MANAGER = "/redfish/v1/Managers/iDRAC.Embedded.1";
export const BIOS = `${SYSTEM}/Bios`;
export const BIOS_SETTINGS = `${SYSTEM}/Bios/Settings`;
export const MANAGER_ATTRIBUTES = `${MANAGER}/Attributes`;
export const DELL_ATTRIBUTES = `${MANAGER}/Oem/Dell/DellAttributes/iDRAC.Embedded.1`;
export const JOBS = `${MANAGER}/Jobs`;
export const OEM_JOBS = `${MANAGER}/Oem/Dell/Jobs`;

/** A write that reached the mockup: method, path (as sent) and JSON body. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: JsonObject;
}

type Responder = (
  request: RecordedRequest,
) => MockupResponse | undefined | Promise<MockupResponse | undefined>;

interface Interception {
  method: string;
  path: RegExp;
  respond: Responder;
}

/**
 * One Dell mockup server for a test file: every write is recorded (before the iDRAC behaviors see it), a test
 * can make the BMC answer a request its own way once, and state is arranged through the service.
 */
export class DellMockup {
  readonly requests: RecordedRequest[] = [];
  private readonly interceptions: Interception[] = [];
  private readonly clients: RedfishClient[] = [];
  private probeCache: ServiceProbe | undefined;

  private constructor(readonly server: MockupServer) {}

  static async start(
    mockup: string,
    options: { idrac?: DellMockupOptions; auth?: MockupAuthMode } = {},
  ): Promise<DellMockup> {
    let instance: DellMockup | undefined;
    const record = (method: string) => (context: { request: { pathname: string }; body: JsonObject }) =>
      instance?.record({ method, path: context.request.pathname, body: context.body });
    const recorder: MockupBehavior = {
      name: "test-recorder",
      patch: { "/**": record("PATCH") },
      post: { "/**": record("POST") },
      actions: { "/**": record("POST") },
    };
    const server = await MockupServer.start({
      root: mockup,
      auth: options.auth ?? "basic",
      credentials: CREDENTIALS,
      behaviors: [recorder, ...dellMockupBehaviors(options.idrac)],
    });
    instance = new DellMockup(server);
    return instance;
  }

  get service(): MockupService {
    return this.server.service;
  }

  private record(request: RecordedRequest): ReturnType<Responder> {
    this.requests.push(request);
    const index = this.interceptions.findIndex(
      (i) => i.method === request.method && i.path.test(request.path),
    );
    if (index < 0) return undefined;
    const [interception] = this.interceptions.splice(index, 1);
    return interception?.respond(request);
  }

  /** The next matching request gets this answer instead of the mockup's. */
  intercept(method: string, path: RegExp, respond: Responder): void {
    this.interceptions.push({ method, path, respond });
  }

  /** The writes recorded since the last call. */
  take(): RecordedRequest[] {
    return this.requests.splice(0);
  }

  /** Reboots the host through the driver (which runs the queued jobs); the reset is not kept as a write. */
  async reboot(driver: BmcDriver): Promise<void> {
    await driver.power("ForceRestart");
    const reset = this.requests.findIndex((r) => r.path.endsWith("/ComputerSystem.Reset"));
    if (reset >= 0) this.requests.splice(reset, 1);
  }

  /** A fresh driver (no cached ids or job collection) talking to this mockup. */
  async driver(settings?: Readonly<Record<string, unknown>>): Promise<DellIdracDriver> {
    const client = new RedfishClient({
      address: this.server.url,
      credentials: CREDENTIALS,
      retry: { retries: 0 },
    });
    this.clients.push(client);
    this.probeCache ??= await probeService(client);
    const driver = dellDriver.create(client, {
      logger: silentLogger,
      probe: this.probeCache,
      ...(settings ? { settings } : {}),
    });
    if (!(driver instanceof DellIdracDriver))
      throw new Error("the dell definition created another driver class");
    return driver;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
    await this.server.stop();
  }

  // ---- state ------------------------------------------------------------------------------------------

  async attributes(path: string): Promise<Record<string, BiosValue>> {
    return ((await this.service.read(path))?.Attributes ?? {}) as Record<string, BiosValue>;
  }

  async setBiosAttributes(attributes: JsonObject): Promise<void> {
    await this.service.merge(BIOS, { Attributes: attributes });
  }

  async setManagerAttributes(attributes: JsonObject): Promise<void> {
    for (const path of [MANAGER_ATTRIBUTES, DELL_ATTRIBUTES])
      await this.service.merge(path, { Attributes: attributes });
  }

  async stageBios(attributes: JsonObject): Promise<void> {
    await this.service.merge(BIOS_SETTINGS, { Attributes: attributes });
  }

  /** Empties the job queue and the staged BIOS values: a clean iDRAC for the next test. */
  async resetQueue(): Promise<void> {
    for (const collection of [JOBS, OEM_JOBS]) {
      const body = await this.service.read(collection);
      for (const member of (body?.Members ?? []) as JsonObject[])
        this.service.remove(String(member["@odata.id"]));
      if (body) this.service.write(collection, { ...body, Members: [], "Members@odata.count": 0 });
    }
    const settings = await this.service.read(BIOS_SETTINGS);
    if (settings) this.service.write(BIOS_SETTINGS, { ...settings, Attributes: {} });
    this.take();
  }

  /** Adds a job as the iDRAC shows it, in both collections. */
  async addJob(id: string, job: JsonObject): Promise<void> {
    const body = { "@odata.type": "#DellJob.v1_2_0.DellJob", Name: "Configure: BIOS.Setup.1-1", ...job };
    for (const collection of [JOBS, OEM_JOBS]) await this.service.createMember(collection, body, { id });
  }

  async job(id: string): Promise<JsonObject | undefined> {
    return this.service.read(`${JOBS}/${id}`);
  }

  async bootOrder(): Promise<string[]> {
    const boot = (await this.service.read(SYSTEM))?.Boot as JsonObject | undefined;
    return (boot?.BootOrder ?? []) as string[];
  }
}

/** `{ status, body }` of a Redfish error the way an iDRAC words it (for intercepted answers). */
export function idracError(status: number, messageId: string, message: string): MockupResponse {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: {
      error: {
        code: "Base.1.12.GeneralError",
        message,
        "@Message.ExtendedInfo": [{ MessageId: messageId, Message: message }],
      },
    },
  };
}

export function only(requests: readonly RecordedRequest[], method: string, path: string): RecordedRequest[] {
  return requests.filter((r) => r.method === method && r.path.replace(/\/+$/, "") === path);
}
