import { setMaxListeners } from "node:events";
import type { IncomingMessage } from "node:http";
import { dirname, resolve } from "node:path";
import { InvalidArgumentError, type Logger, silentLogger } from "@racksmith/core";
import type { DhcpDiscovery, ExpectedMachineInput } from "@racksmith/server";
import {
  createSelfSignedCertificate,
  type MockupBehavior,
  type MockupCredentials,
  type MockupResponse,
  type MockupServerStats,
  RequestStatsCounter,
  redfishError,
  type TlsCertificate,
} from "@racksmith/testkit";
import { FleetBmcNotFoundError } from "./errors.js";
import { canonicalMac, displayMac } from "./identity/index.js";
import { type FleetAnomaly, type FleetPlan, planFleet } from "./plan/index.js";
import { checkScenario, type FleetScenario, loadScenarioFile } from "./scenario/index.js";
import {
  addressKey,
  type Listener,
  listen,
  parseHost,
  type RequestedHost,
  requestedHost,
  requestHandler,
  type ServeContext,
  VirtualBmc,
  type VirtualBmcServiceOptions,
} from "./server/index.js";

export interface StartFleetOptions {
  /** A scenario, or the path of a scenario file (YAML or JSON). One of `scenario` and `plan` is required. */
  readonly scenario?: FleetScenario | string;
  /** An already planned fleet (`planFleet`), e.g. to adjust it before serving. */
  readonly plan?: FleetPlan;
  /**
   * Where packages and mockup paths are looked up from (default: the scenario file's folder, else the cwd).
   */
  readonly baseDir?: string;
  /**
   * The one listener every BMC is reached through: `HOST:PORT` or parts (default 127.0.0.1, any free port).
   */
  readonly listen?: string | { readonly host?: string; readonly port?: number };
  /** Also give each virtual BMC its own port (on the listener's host); its `url` says where. */
  readonly portPerBmc?: boolean;
  /** Serve HTTPS with a self-signed certificate (see `certificate`). */
  readonly tls?: boolean;
  /** Behaviors per vendor key, instead of the vendor packages' own (`./testing`). */
  readonly behaviors?: Readonly<Record<string, readonly MockupBehavior[]>>;
  /** Settings of every virtual BMC's mockup service (page size, task duration, clock). */
  readonly service?: VirtualBmcServiceOptions;
  readonly logger?: Logger;
}

export interface FleetStats extends MockupServerStats {
  /** Virtual BMCs in the fleet. */
  readonly bmcs: number;
  /** Virtual BMCs whose service exists (they were asked something). */
  readonly created: number;
  /** Requests no virtual BMC was routed for (404). */
  readonly unknownBmc: number;
}

/**
 * A fleet of virtual BMCs behind one listener: a request reaches the BMC named by its `Forwarded: host=`
 * header (what RedfishClient `connectVia` and BMC proxies send) or its `Host` header. Start it with
 * {@link startFleet}.
 */
export class Fleet {
  private readonly byAddress = new Map<string, VirtualBmc>();
  private readonly byMac = new Map<string, VirtualBmc>();
  private readonly byId = new Map<string, VirtualBmc>();
  private readonly counter = new RequestStatsCounter();
  private readonly shutdown = new AbortController();
  private readonly listeners: Listener[] = [];
  private createdCount = 0;
  private unknownCount = 0;
  readonly bmcs: readonly VirtualBmc[];
  /** The listener's URL: set it as the explorer's BMC proxy (`siteExplorer.bmcProxy`). */
  url = "";
  /** PEM of the self-signed certificate when serving HTTPS. */
  readonly certificate: string | undefined;

  private constructor(
    readonly plan: FleetPlan,
    private readonly tls: TlsCertificate | undefined,
    private readonly logger: Logger,
    service: VirtualBmcServiceOptions,
  ) {
    this.certificate = tls?.cert;
    // Every delayed request of every BMC listens to this one signal.
    setMaxListeners(0, this.shutdown.signal);
    this.bmcs = plan.bmcs.map(
      (bmcPlan) =>
        new VirtualBmc(bmcPlan, service, () => {
          this.createdCount++;
        }),
    );
    for (const bmc of this.bmcs) {
      this.byId.set(bmc.id, bmc);
      this.byMac.set(bmc.mac, bmc);
      if (bmc.address) this.byAddress.set(keyOf(bmc.address), bmc);
    }
  }

  /** Plans (unless given a plan) and starts a fleet. */
  static async start(options: StartFleetOptions): Promise<Fleet> {
    const plan = options.plan ?? (await planOf(options));
    const tls = options.tls ? await createSelfSignedCertificate() : undefined;
    // The scenario's lockout applies unless the caller's service options say otherwise.
    const service = { ...(plan.lockout ? { lockout: plan.lockout } : {}), ...options.service };
    const fleet = new Fleet(plan, tls, options.logger ?? silentLogger, service);
    try {
      await fleet.open(listenAddress(options.listen), options.portPerBmc === true);
    } catch (error) {
      await fleet.stop();
      throw error;
    }
    return fleet;
  }

  get expectedMachines(): readonly ExpectedMachineInput[] {
    return this.plan.expectedMachines;
  }

  get discoveries(): readonly DhcpDiscovery[] {
    return this.plan.discoveries;
  }

  get factoryDefaults(): Readonly<Record<string, MockupCredentials>> {
    return this.plan.factoryDefaults;
  }

  get anomalies(): readonly FleetAnomaly[] {
    return this.plan.anomalies;
  }

  get stats(): FleetStats {
    return {
      ...this.counter.snapshot(),
      bmcs: this.bmcs.length,
      created: this.createdCount,
      unknownBmc: this.unknownCount,
    };
  }

  /** A virtual BMC by id (`host-0001`), MAC (any notation) or current address. */
  bmc(key: string): VirtualBmc | undefined {
    const mac = canonicalMac(key);
    const host = parseHost(key);
    return this.byId.get(key) ?? (mac ? this.byMac.get(displayMac(mac)) : undefined) ?? this.at(host);
  }

  /**
   * Routes `address` to the BMC with this MAC (what the service's DHCP answered for it). A BMC that held the
   * address loses it until it is assigned another.
   */
  assign(address: string, bmcMac: string): VirtualBmc {
    const mac = canonicalMac(bmcMac);
    const bmc = mac ? this.byMac.get(displayMac(mac)) : undefined;
    if (!bmc) throw new FleetBmcNotFoundError(bmcMac);
    const key = keyOf(address);
    const holder = this.byAddress.get(key);
    if (holder && holder !== bmc) holder.address = undefined;
    if (bmc.address && this.byAddress.get(keyOf(bmc.address)) === bmc)
      this.byAddress.delete(keyOf(bmc.address));
    bmc.address = address;
    this.byAddress.set(key, bmc);
    return bmc;
  }

  /** Closes every port and connection; injected delays still pending end at once. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.all(this.listeners.splice(0).map((listener) => listener.close()));
  }

  private async open(address: { host: string; port: number }, portPerBmc: boolean): Promise<void> {
    const context = (route: ServeContext["route"]): ServeContext => ({
      route,
      unknownBmc: (request) => this.unknownBmc(request),
      counter: this.counter,
      shutdown: this.shutdown.signal,
      logger: this.logger,
    });
    const shared = await listen(
      requestHandler(context((request) => this.at(requestedHost(request.headers)))),
      {
        ...address,
        certificate: this.tls,
      },
    );
    this.listeners.push(shared);
    this.url = shared.url;
    if (!portPerBmc) return;
    for (const bmc of this.bmcs) {
      const own = await listen(requestHandler(context(() => bmc)), {
        host: address.host,
        port: 0,
        certificate: this.tls,
      });
      this.listeners.push(own);
      bmc.url = own.url;
    }
  }

  /** The BMC at an address, as named (with its port) or without the port. */
  private at(host: RequestedHost | undefined): VirtualBmc | undefined {
    if (!host) return undefined;
    return this.byAddress.get(addressKey(host)) ?? this.byAddress.get(addressKey(host, false));
  }

  private unknownBmc(request: IncomingMessage): MockupResponse {
    this.unknownCount++;
    const host = requestedHost(request.headers);
    return redfishError(404, "GeneralError", [], {
      message: `No virtual BMC at ${host ? addressKey(host) : "(no host named)"}: this fleet serves ${this.bmcs.length} BMCs.`,
      resolution:
        "Name the BMC's address in a Forwarded: host=<address> header (a BMC proxy, RedfishClient connectVia) or in the Host header.",
    });
  }
}

/** Starts a fleet of virtual BMCs from a scenario (object or file) or a plan. */
export function startFleet(options: StartFleetOptions): Promise<Fleet> {
  return Fleet.start(options);
}

async function planOf(options: StartFleetOptions): Promise<FleetPlan> {
  if (options.scenario === undefined) throw new InvalidArgumentError("startFleet needs a scenario or a plan");
  const file = typeof options.scenario === "string" ? resolve(options.scenario) : undefined;
  const scenario = file ? await loadScenarioFile(file) : checkScenario(options.scenario);
  return planFleet(scenario, {
    baseDir: options.baseDir ?? (file ? dirname(file) : process.cwd()),
    ...(options.behaviors ? { behaviors: options.behaviors } : {}),
  });
}

function listenAddress(listen: StartFleetOptions["listen"]): { host: string; port: number } {
  if (listen === undefined) return { host: "127.0.0.1", port: 0 };
  if (typeof listen !== "string") return { host: listen.host ?? "127.0.0.1", port: listen.port ?? 0 };
  const parsed = parseHost(listen);
  return { host: parsed?.hostname || "127.0.0.1", port: Number(parsed?.port ?? 0) };
}

function keyOf(address: string): string {
  const host = parseHost(address);
  return host ? addressKey(host) : address.toLowerCase();
}
