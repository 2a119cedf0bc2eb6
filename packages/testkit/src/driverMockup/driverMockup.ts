import {
  type BmcDriver,
  type BmcDriverDefinition,
  type DriverContext,
  type Logger,
  silentLogger,
} from "@racksmith/core";
import { probeService, RedfishClient, type ServiceProbe } from "@racksmith/core/redfish";
import type { MockupBehavior } from "../mockup/behaviors.js";
import type { JsonObject } from "../mockup/json.js";
import { MockupServer, type MockupServerOptions } from "../mockup/mockupServer.js";
import type { MockupService } from "../mockup/mockupService.js";
import type { MockupTree } from "../mockup/mockupTree.js";
import { DEFAULT_MOCKUP_CREDENTIALS, type MockupAuthMode, type MockupCredentials } from "../mockup/types.js";
import { redfishCliArgs } from "./redfishCliArgs.js";
import { pathMatches, type RecordedWrite, WriteRecorder, type WriteResponder } from "./writeRecorder.js";

/** Makes the driver under test, for a driver class that is not (only) reached through its definition. */
export type DriverFactory<D extends BmcDriver> = (client: RedfishClient, context: DriverContext) => D;

export interface DriverMockupOptions<D extends BmcDriver = BmcDriver> {
  /** The driver under test: its definition (`create` is called), or a factory (a test subclass). */
  readonly driver: BmcDriverDefinition | DriverFactory<D>;
  /** A mockup folder in any supported layout, or an already opened tree. */
  readonly mockup: string | MockupTree;
  /** The vendor's behaviors (what the driver package's `./testing` entry exports). */
  readonly behaviors?: readonly MockupBehavior[];
  /** The test's own behaviors (injected refusals, doubles): after the recorder, before the vendor's. */
  readonly before?: readonly MockupBehavior[];
  /** Default `basic`. */
  readonly auth?: MockupAuthMode;
  /** The account the BMC accepts and the client uses; default `DEFAULT_MOCKUP_CREDENTIALS`. */
  readonly credentials?: MockupCredentials;
  /** Operator settings for the driver (`drivers.<name>` of a config). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The driver's logger; default silent. */
  readonly logger?: Logger;
  /** Probe the service and give the probe to the driver, as the site explorer does (default true). */
  readonly probe?: boolean;
  /** Record action POSTs as writes too (default true). */
  readonly recordActions?: boolean;
  /** Resources `reset()` puts back as the mockup folder has them (removed when the folder has none). */
  readonly resetPaths?: readonly string[];
  /** The racksmith config `redfishArgs()` commands load (one that names the driver package under test). */
  readonly cliConfig?: string;
  /** Other server options: `taskDurationMs`, `pageSize`, `faults`, `tls`, … */
  readonly server?: Omit<MockupServerOptions, "root" | "auth" | "credentials" | "behaviors">;
}

/** The per-test hooks of a test runner (vitest's or `node:test`'s `beforeAll`/`before`, …). */
export interface DriverMockupHooks {
  beforeAll(fn: () => unknown): void;
  afterAll(fn: () => unknown): void;
  beforeEach(fn: () => unknown): void;
}

/**
 * A driver under test against a stateful mockup server: the server (with a write recorder in front of the
 * test's and the vendor's behaviors), a Redfish client without retries (errors show as they are), the service
 * probe, and the driver created for it. Tests read and arrange state through `service`, assert on the writes
 * the driver sent, and make the BMC answer one request their own way with `intercept`.
 *
 * Made unstarted, so a test file can hold it in a `const`; `start()` (or {@link useDriverMockup}) serves it.
 */
export class DriverMockup<D extends BmcDriver = BmcDriver> {
  readonly credentials: MockupCredentials;
  private readonly recorder: WriteRecorder;
  private running:
    | { server: MockupServer; client: RedfishClient; probe: ServiceProbe | undefined }
    | undefined;
  private defaultDriver: D | undefined;

  constructor(readonly options: DriverMockupOptions<D>) {
    this.credentials = options.credentials ?? DEFAULT_MOCKUP_CREDENTIALS;
    this.recorder = new WriteRecorder(options.recordActions ?? true);
  }

  /** Serves the mockup, probes it and creates the driver. */
  async start(): Promise<this> {
    if (this.running) throw new Error("this driver mockup is already started");
    const { options, credentials } = this;
    const server = await MockupServer.start({
      ...options.server,
      root: options.mockup,
      auth: options.auth ?? "basic",
      credentials,
      behaviors: [this.recorder.behavior(), ...(options.before ?? []), ...(options.behaviors ?? [])],
    });
    const client = new RedfishClient({ address: server.url, credentials, retry: { retries: 0 } });
    try {
      const probe = options.probe === false ? undefined : await probeService(client);
      this.running = { server, client, probe };
      this.defaultDriver = this.createDriver();
    } catch (error) {
      this.running = undefined;
      await client.close();
      await server.stop();
      throw error;
    }
    return this;
  }

  private get live(): NonNullable<DriverMockup<D>["running"]> {
    if (!this.running) throw notStarted();
    return this.running;
  }

  get server(): MockupServer {
    return this.live.server;
  }

  get service(): MockupService {
    return this.live.server.service;
  }

  get url(): string {
    return this.live.server.url;
  }

  get client(): RedfishClient {
    return this.live.client;
  }

  /** The probe the driver was created with (there is none with `probe: false`). */
  get probe(): ServiceProbe {
    const { probe } = this.live;
    if (!probe) throw new Error("this driver mockup was started with probe: false");
    return probe;
  }

  /** The driver created at start (with the options' settings and logger). */
  get driver(): D {
    if (!this.defaultDriver) throw notStarted();
    return this.defaultDriver;
  }

  /** A new driver on the same client and probe (no state cached), with other settings or logger if given. */
  createDriver(context: Partial<Pick<DriverContext, "settings" | "logger">> = {}): D {
    const { client, probe } = this.live;
    const settings = context.settings ?? this.options.settings;
    const driverContext: DriverContext = {
      logger: context.logger ?? this.options.logger ?? silentLogger,
      ...(probe ? { probe } : {}),
      ...(settings ? { settings } : {}),
    };
    const { driver } = this.options;
    return typeof driver === "function"
      ? driver(client, driverContext)
      : (driver.create(client, driverContext) as D);
  }

  /** Every write since the last `takeWrites()`/`clearWrites()`/`reset()`, oldest first. */
  get writes(): readonly RecordedWrite[] {
    return this.recorder.writes;
  }

  /** The writes recorded so far (those `match` accepts), forgotten; the others stay recorded. */
  takeWrites(match?: (write: RecordedWrite) => boolean): RecordedWrite[] {
    return this.recorder.take(match);
  }

  clearWrites(): void {
    this.recorder.take();
  }

  /** The recorded writes whose path contains `pathPart` (or matches it). */
  writesTo(pathPart: string | RegExp): RecordedWrite[] {
    return this.recorder.writes.filter((write) => pathMatches(write.path, pathPart));
  }

  /**
   * The next write with this method whose path contains `path` (or matches it) gets `respond`'s answer instead
   * of the mockup's, once; `reset()` drops an interception no write used.
   */
  intercept(method: RecordedWrite["method"], path: string | RegExp, respond: WriteResponder): void {
    this.recorder.intercept(method, path, respond);
  }

  /** The resource as the BMC holds it now; throws when there is none. */
  async read(path: string): Promise<JsonObject> {
    const body = await this.service.read(path);
    if (!body) throw new Error(`the mockup has no resource at ${path}`);
    return body;
  }

  /** Puts JSON resources back as the mockup folder has them; one the folder lacks is removed. */
  async restore(paths: readonly string[]): Promise<void> {
    const { service } = this;
    for (const path of paths) {
      const document = await service.tree.read(path);
      if (!document) service.remove(path);
      else if (document.kind === "json" && document.status === 200) service.write(path, document.body);
    }
  }

  /** Saves resources as they are now; the returned function puts them back (removing ones that were absent). */
  async save(paths: readonly string[]): Promise<() => void> {
    const { service } = this;
    const saved = await Promise.all(paths.map(async (path) => [path, await service.read(path)] as const));
    return () => {
      for (const [path, body] of saved) {
        if (body) service.write(path, body);
        else service.remove(path);
      }
    };
  }

  /** Between tests: restores `resetPaths`, forgets the writes, drops unused interceptions and injected faults. */
  async reset(): Promise<void> {
    await this.restore(this.options.resetPaths ?? []);
    this.recorder.clear();
    this.server.clearFaults();
  }

  /** A host reboot through the driver (the mockup applies what is staged for the next boot). */
  async reboot(): Promise<void> {
    await this.driver.power("ForceRestart");
  }

  /** The argv of `racksmith redfish … <operation>` against this mockup, loading `cliConfig` when given. */
  redfishArgs(...operation: string[]): string[] {
    const { credentials, options } = this;
    return redfishCliArgs({ url: this.url, credentials, config: options.cliConfig }, ...operation);
  }

  /** Closes the client and stops the server; a mockup never started closes at once. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.defaultDriver = undefined;
    if (!running) return;
    try {
      await running.client.close();
    } finally {
      await running.server.stop();
    }
  }
}

function notStarted(): Error {
  return new Error("the driver mockup is not started: use it in a test or hook that runs after start()");
}

/** Starts a {@link DriverMockup}: served, probed, with the driver created. */
export function startDriverMockup<D extends BmcDriver = BmcDriver>(
  options: DriverMockupOptions<D>,
): Promise<DriverMockup<D>> {
  return new DriverMockup(options).start();
}

/**
 * One driver mockup for a test file (or a `describe`): started before its tests, `reset()` before each one,
 * closed after them. Returns the mockup at once, so the file holds it in a `const`.
 *
 * ```ts
 * const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, { driver: dellDriver, mockup: R750 });
 * it("reads the BIOS", async () => expect(await bmc.driver.bios()).toMatchObject({ … }));
 * ```
 */
export function useDriverMockup<M extends DriverMockup<BmcDriver>>(hooks: DriverMockupHooks, mockup: M): M;
export function useDriverMockup<D extends BmcDriver = BmcDriver>(
  hooks: DriverMockupHooks,
  options: DriverMockupOptions<D>,
): DriverMockup<D>;
export function useDriverMockup(
  hooks: DriverMockupHooks,
  mockup: DriverMockup<BmcDriver> | DriverMockupOptions<BmcDriver>,
): DriverMockup<BmcDriver> {
  const instance = mockup instanceof DriverMockup ? mockup : new DriverMockup(mockup);
  hooks.beforeAll(async () => {
    await instance.start();
  });
  hooks.beforeEach(() => instance.reset());
  hooks.afterAll(() => instance.close());
  return instance;
}
