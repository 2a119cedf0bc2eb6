import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { TLSSocket } from "node:tls";
import { normalizeIbGuid, type Pkey, parsePkey } from "@racksmith/core/infiniband";
import type { UfmMembership, UfmQosConf } from "../client/index.js";
import { route } from "./routes.js";
import {
  type SimulatedPort,
  type SimulatedSecurity,
  SimulatorRequestError,
  UfmSimulatorState,
} from "./state.js";

/** Which credentials the simulator accepts. With none set, every request is accepted. */
export interface UfmSimulatorAuth {
  /** Accepted on `/ufmRestV3` as `Authorization: Basic <token>`. */
  token?: string;
  /** Accepted on `/ufmRest` as HTTP Basic. */
  username?: string;
  password?: string;
  /** Accept a client certificate signed by `tls.ca` on `/ufmRest` (mTLS; needs `tls`). */
  clientCert?: boolean;
}

/** Serve HTTPS with this certificate (PEM); `ca` verifies client certificates. */
export interface UfmSimulatorTls {
  cert: string | Buffer;
  key: string | Buffer;
  ca?: string | Buffer;
}

export interface UfmSimulatorFaults {
  /** Not listening: connections are refused. */
  down?: boolean;
  /** Every answer is delayed by this long. */
  delayMs?: number;
  /** Every request fails with this HTTP status (500, 503, …). */
  errorStatus?: number;
}

export interface UfmSimulatorOptions {
  ports?: readonly SimulatedPort[];
  security?: SimulatedSecurity;
  auth?: UfmSimulatorAuth;
  tls?: UfmSimulatorTls;
  faults?: UfmSimulatorFaults;
  /** `ufm_release_version` (default 6.19.0-4). */
  version?: string;
  host?: string;
  /** Default: a free port. */
  port?: number;
}

export interface RecordedUfmRequest {
  method: string;
  base: "/ufmRest" | "/ufmRestV3";
  path: string;
  query: string;
  /** How the request authenticated (`none` also for a rejected one). */
  auth: "token" | "basic" | "mtls" | "none";
  status: number;
}

interface Failure {
  status: number;
  remaining: number;
  pathPrefix?: string;
  body?: string;
}

/**
 * A stateful UFM for tests and the fleet: the REST endpoints NICo uses, under `/ufmRest` and `/ufmRestV3`,
 * with token / basic / mTLS auth, UFM's quirks (200 `{}` for a missing partition, empty partitions
 * vanishing) and fault injection. State is inspected and changed directly through the helpers.
 */
export class UfmSimulator {
  readonly state: UfmSimulatorState;
  readonly requests: RecordedUfmRequest[] = [];
  private readonly server: Server;
  private readonly host: string;
  private readonly version: string;
  private readonly auth: UfmSimulatorAuth | undefined;
  private readonly secure: boolean;
  private readonly stopping = new AbortController();
  private port: number;
  private down = false;
  private delayMs: number;
  private failures: Failure[] = [];

  private constructor(options: UfmSimulatorOptions) {
    this.state = new UfmSimulatorState(options.ports ?? [], options.security);
    this.host = options.host ?? "127.0.0.1";
    this.port = options.port ?? 0;
    this.version = options.version ?? "6.19.0-4";
    this.auth = options.auth;
    this.delayMs = options.faults?.delayMs ?? 0;
    if (options.faults?.errorStatus) this.failRequests(options.faults.errorStatus);
    const handler = (request: IncomingMessage, response: ServerResponse): void => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent && !response.destroyed) response.writeHead(500).end();
      });
    };
    this.secure = options.tls !== undefined;
    this.server = options.tls
      ? createHttpsServer(
          {
            cert: options.tls.cert,
            key: options.tls.key,
            ...(options.tls.ca ? { ca: options.tls.ca } : {}),
            requestCert: options.auth?.clientCert === true,
            // Checked per request, so a missing certificate is a 401 rather than a failed handshake.
            rejectUnauthorized: false,
          },
          handler,
        )
      : createHttpServer(handler);
  }

  static async start(options: UfmSimulatorOptions = {}): Promise<UfmSimulator> {
    const simulator = new UfmSimulator(options);
    await simulator.listen();
    if (options.faults?.down) await simulator.setDown(true);
    return simulator;
  }

  /** The endpoint to configure (`http://127.0.0.1:port`, no base path). */
  get url(): string {
    return `${this.secure ? "https" : "http"}://${this.host}:${this.port}`;
  }

  /** Stops listening (connections refused) or listens again on the same port. */
  async setDown(down: boolean): Promise<void> {
    if (down === this.down) return;
    this.down = down;
    if (down) {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.server.closeAllConnections();
      await closed;
    } else await this.listen();
  }

  setDelay(ms: number): void {
    this.delayMs = ms;
  }

  /** The next `count` requests (default: all) under `pathPrefix` (default: any) fail with `status`. */
  failRequests(status: number, options: { count?: number; pathPrefix?: string; body?: string } = {}): void {
    this.failures.push({
      status,
      remaining: options.count ?? Number.POSITIVE_INFINITY,
      ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
  }

  /** Back up, no delay, no failures. */
  async clearFaults(): Promise<void> {
    this.delayMs = 0;
    this.failures = [];
    await this.setDown(false);
  }

  /** GUIDs bound to a partition, sorted (empty when the partition does not exist). */
  guidsIn(pkey: Pkey | string): string[] {
    const partition = this.state.partitions.get(parsePkey(pkey));
    return partition ? [...partition.members.keys()].sort() : [];
  }

  /** Pkeys a GUID is bound to, sorted (the default partition included). */
  pkeysOf(guid: string): Pkey[] {
    const normalized = normalizeIbGuid(guid);
    return [...this.state.partitions.values()]
      .filter((partition) => partition.members.has(normalized))
      .map((partition) => partition.pkey)
      .sort((a, b) => a - b);
  }

  hasPartition(pkey: Pkey | string): boolean {
    return this.state.partitions.has(parsePkey(pkey));
  }

  /** QoS of a partition as UFM stores it, or undefined. */
  qosOf(pkey: Pkey | string): UfmQosConf | undefined {
    const partition = this.state.partitions.get(parsePkey(pkey));
    return partition ? { ...partition.qos } : undefined;
  }

  /** Binds as an operator in UFM's UI would (e.g. to create drift the monitor must undo). */
  bindByHand(
    pkey: Pkey | string,
    guids: readonly string[],
    options: { membership?: UfmMembership; index0?: boolean; qos?: UfmQosConf } = {},
  ): void {
    const parsed = parsePkey(pkey);
    this.state.bind(
      parsed,
      guids,
      { membership: options.membership ?? "full", index0: options.index0 ?? true },
      true,
    );
    if (options.qos) this.state.updateQos(parsed, options.qos);
  }

  unbindByHand(pkey: Pkey | string, guids: readonly string[]): void {
    this.state.unbind(parsePkey(pkey), guids);
  }

  addPort(port: SimulatedPort): void {
    this.state.addPort(port);
  }

  /** `Active`, `Down`, `Initialize`, `Armed` (or anything, to test unknown states). */
  setPortState(guid: string, logicalState: string): void {
    this.state.setPortState(guid, logicalState);
  }

  setSecurity(security: SimulatedSecurity): void {
    this.state.setSecurity(security);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.down) return;
    this.down = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off("error", reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://ufm");
    const method = request.method ?? "GET";
    const text = await readBody(request);
    if (this.delayMs > 0) {
      await sleep(this.delayMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
    const base = url.pathname.startsWith("/ufmRestV3/")
      ? "/ufmRestV3"
      : url.pathname.startsWith("/ufmRest/")
        ? "/ufmRest"
        : undefined;
    const path = base ? url.pathname.slice(base.length) : url.pathname;
    const auth = base ? this.authenticate(request, base) : "none";
    const answer = (status: number, body?: unknown): void => {
      if (base) this.requests.push({ method, base, path, query: url.search, auth, status });
      if (response.destroyed) return;
      const payload = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
      response.writeHead(status, { "content-type": "application/json" }).end(payload);
    };

    if (!base) return answer(404, { error: "not a UFM REST path" });
    const failure = this.failures.find(
      (candidate) =>
        candidate.remaining > 0 && (!candidate.pathPrefix || path.startsWith(candidate.pathPrefix)),
    );
    if (failure) {
      failure.remaining--;
      return answer(failure.status, failure.body ?? { error: "simulated failure" });
    }
    if (auth === "none" && this.authRequired()) return answer(401, { error: "Unauthorized" });

    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return answer(400, { error: "malformed JSON body" });
    }
    try {
      const result = route(this.state, this.version, { method, path, query: url.searchParams, body });
      return answer(result.status, result.body);
    } catch (error) {
      if (error instanceof SimulatorRequestError) return answer(error.status, { error: error.message });
      return answer(400, { error: (error as Error).message });
    }
  }

  private authRequired(): boolean {
    const auth = this.auth;
    return !!auth && (auth.token !== undefined || auth.username !== undefined || auth.clientCert === true);
  }

  private authenticate(
    request: IncomingMessage,
    base: "/ufmRest" | "/ufmRestV3",
  ): RecordedUfmRequest["auth"] {
    const auth = this.auth;
    if (!auth) return "none";
    const header = request.headers.authorization ?? "";
    if (base === "/ufmRestV3")
      return auth.token !== undefined && header === `Basic ${auth.token}` ? "token" : "none";
    if (auth.clientCert && (request.socket as TLSSocket).authorized === true) return "mtls";
    if (auth.username !== undefined) {
      const expected = `Basic ${Buffer.from(`${auth.username}:${auth.password ?? ""}`).toString("base64")}`;
      if (header === expected) return "basic";
    }
    return "none";
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
