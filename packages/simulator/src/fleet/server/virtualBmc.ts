import {
  type FaultDecision,
  FaultInjector,
  type FaultRule,
  type JsonObject,
  type MockupCredentials,
  type MockupPowerChange,
  type MockupPowerListener,
  type MockupRequest,
  type MockupResponse,
  MockupService,
  type MockupServiceOptions,
} from "@racksmith/testkit";
import type { IdentityRewrite } from "../identity/index.js";
import type { FleetAnomaly, VirtualBmcKind, VirtualBmcPlan } from "../plan/index.js";

/** Settings every virtual BMC's {@link MockupService} is made with. */
export type VirtualBmcServiceOptions = Pick<
  MockupServiceOptions,
  "pageSize" | "taskDurationMs" | "lockout" | "now" | "logger"
>;

interface Instance {
  readonly service: MockupService;
  readonly rewrite: IdentityRewrite;
}

/** What is printed and written about a virtual BMC (never its password). */
export interface VirtualBmcSummary {
  id: string;
  kind: VirtualBmcKind;
  vendor: string;
  model: string;
  address: string | null;
  mac: string;
  serial: string;
  host: string | null;
  dpus: string[];
  dpuSerials: string[];
  dpuMacs: string[];
  anomalies: FleetAnomaly["kind"][];
}

/**
 * One virtual BMC of a fleet. Idle, it is only its plan (a few hundred bytes); its {@link MockupService} —
 * state over the shared tree, vendor behaviors — is made on its first request. Every answer is rewritten to
 * its identity and every request rewritten back, so state and behaviors work on the tree's own values.
 */
export class VirtualBmc {
  /** Where the fleet routes to it (`Forwarded: host=` / `Host`); moved by DHCP answers. */
  address: string | undefined;
  /** Its own listener, when the fleet gives each BMC a port. */
  url: string | undefined;
  private instance: Promise<Instance> | undefined;
  private faults: FaultInjector | undefined;
  private powerListeners: readonly MockupPowerListener[] = [];
  /** Set synchronously when the service is made, so a listener added later attaches at once. */
  private powerSource: { service: MockupService; rewrite: IdentityRewrite } | undefined;
  private detachPower: (() => void) | undefined;

  constructor(
    readonly plan: VirtualBmcPlan,
    private readonly serviceOptions: VirtualBmcServiceOptions = {},
    private readonly onCreate: () => void = () => undefined,
  ) {
    this.address = plan.address;
    if (plan.faults.length) this.faults = new FaultInjector(plan.faults);
  }

  get id(): string {
    return this.plan.id;
  }

  get kind(): VirtualBmcKind {
    return this.plan.kind;
  }

  get vendor(): string {
    return this.plan.vendor;
  }

  /** The mockup's folder name (`poweredge-r750`). */
  get model(): string {
    return this.plan.template.model;
  }

  get mac(): string {
    return this.plan.mac;
  }

  get serial(): string {
    return this.plan.serial;
  }

  /** The account the BMC accepted at start (a password change moves on, in its state). */
  get credentials(): MockupCredentials {
    return this.plan.credentials;
  }

  /** True once a request made its service. */
  get created(): boolean {
    return this.instance !== undefined;
  }

  /** Its mockup service (made now if needed); reads and writes on it use the tree's original values. */
  async service(): Promise<MockupService> {
    return (await this.instantiate()).service;
  }

  /** Answers one request in process, as the fleet's listener does after fault injection. */
  async handle(request: MockupRequest): Promise<MockupResponse> {
    const { service, rewrite } = await this.instantiate();
    const path = this.plan.template.identity.pathsHaveTokens ? rewrite.backward(request.path) : request.path;
    const response = await service.handle({ ...request, path, body: backwardBody(request, rewrite) });
    return forwardResponse(response, rewrite);
  }

  /** A resource as this BMC serves it (rewritten), without authentication; undefined when missing. */
  async read(path: string): Promise<JsonObject | undefined> {
    const { service, rewrite } = await this.instantiate();
    const body = await service.read(
      this.plan.template.identity.pathsHaveTokens ? rewrite.backward(path) : path,
    );
    return body ? (JSON.parse(rewrite.forward(JSON.stringify(body))) as JsonObject) : undefined;
  }

  /**
   * Hears of every reset of this BMC's systems (see `MockupService.onPowerChange`), paths as this BMC serves
   * them. Listening does not make the service: the listener attaches when the first request makes it.
   * Returns a function that stops listening.
   */
  onPowerChange(listener: MockupPowerListener): () => void {
    this.powerListeners = [...this.powerListeners, listener];
    this.attachPower();
    return () => {
      this.powerListeners = this.powerListeners.filter((candidate) => candidate !== listener);
      if (this.powerListeners.length === 0) {
        this.detachPower?.();
        this.detachPower = undefined;
      }
    };
  }

  /** The injected fault for this request, if any (counted as used). */
  takeFault(method: string, path: string): FaultDecision | undefined {
    return this.faults?.take(method, path);
  }

  addFault(rule: FaultRule): void {
    this.faults ??= new FaultInjector();
    this.faults.add(rule);
  }

  clearFaults(): void {
    this.faults?.clear();
  }

  summary(): VirtualBmcSummary {
    const plan = this.plan;
    return {
      id: plan.id,
      kind: plan.kind,
      vendor: plan.vendor,
      model: this.model,
      address: this.address ?? null,
      mac: plan.mac,
      serial: plan.serial,
      host: plan.host ?? null,
      dpus: [...plan.dpus],
      dpuSerials: [...plan.dpuSerials],
      dpuMacs: [...plan.dpuMacs],
      anomalies: [...plan.anomalies],
    };
  }

  private instantiate(): Promise<Instance> {
    if (!this.instance) {
      this.instance = this.create();
      this.onCreate();
    }
    return this.instance;
  }

  private async create(): Promise<Instance> {
    const { template, credentials, passwordChangeRequired, nicMode, poweredOff, identity } = this.plan;
    const service = new MockupService(template.tree, {
      ...this.serviceOptions,
      // Session mode also takes Basic credentials, as real BMCs do.
      auth: passwordChangeRequired ? "password-change-required" : "session",
      credentials,
      behaviors: template.behaviors,
    });
    const rewrite = template.rewriter.forBmc(identity);
    this.powerSource = { service, rewrite };
    this.attachPower();
    if (nicMode) {
      for (const { path, pointer } of template.identity.dpu?.modeSettings ?? []) {
        await service.merge(path, nested(pointer, "NicMode"));
      }
    }
    if (poweredOff) {
      for (const path of template.identity.systemPaths) await service.merge(path, { PowerState: "Off" });
    }
    return { service, rewrite };
  }

  /** One dispatcher on the service while anyone listens, so an unwatched BMC pays nothing per reset. */
  private attachPower(): void {
    const source = this.powerSource;
    if (!source || this.detachPower || this.powerListeners.length === 0) return;
    const forward = this.plan.template.identity.pathsHaveTokens
      ? (path: string) => source.rewrite.forward(path)
      : (path: string) => path;
    this.detachPower = source.service.onPowerChange((change: MockupPowerChange) => {
      const served = { ...change, systemPath: forward(change.systemPath) };
      for (const listener of this.powerListeners) listener(served);
    });
  }
}

/** `["Attributes", "NicMode"]`, `NicMode` → `{ Attributes: { NicMode: "NicMode" } }`. */
function nested(pointer: readonly string[], value: string): JsonObject {
  return pointer.reduceRight<JsonObject>(
    (inner, key, index) => ({ [key]: index === pointer.length - 1 ? value : inner }),
    {},
  );
}

/** A JSON request body in the tree's values; other bodies (firmware images) pass untouched. */
function backwardBody(request: MockupRequest, rewrite: IdentityRewrite): MockupRequest["body"] {
  const body = request.body;
  if (body === undefined) return undefined;
  if (typeof body === "string") return rewrite.backward(body);
  if (body instanceof Uint8Array) {
    const type = request.headers?.["content-type"] ?? request.headers?.["Content-Type"];
    return /json/i.test(String(type ?? "")) ? rewrite.backward(Buffer.from(body).toString("utf8")) : body;
  }
  return JSON.parse(rewrite.backward(JSON.stringify(body)));
}

function forwardResponse(response: MockupResponse, rewrite: IdentityRewrite): MockupResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name] = rewrite.forward(value);
  if (response.body === undefined) return { ...response, headers };
  const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body);
  return { status: response.status, headers, body: rewrite.forward(text) };
}
