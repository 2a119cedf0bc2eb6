import { InvalidArgumentError, type Logger, REDACTED, silentLogger } from "@racksmith/core";
import {
  formatPkey,
  InfiniBandFabricAuthError,
  InfiniBandFabricBadResponseError,
  InfiniBandFabricNotFoundError,
  InfiniBandFabricRejectedError,
  InfiniBandFabricUnavailableError,
  type Pkey,
} from "@racksmith/core/infiniband";
import { Pool } from "undici";
import { transportError } from "./transportError.js";
import type {
  UfmBindRequest,
  UfmPartition,
  UfmPort,
  UfmQosRequest,
  UfmSmConfig,
  UfmUnbindRequest,
  UfmVersion,
} from "./wire.js";

/** The three ways into UFM; each has its REST base path (`/ufmRestV3` for tokens, `/ufmRest` otherwise). */
export type UfmClientAuth =
  | { mode: "token"; token: string }
  | { mode: "basic"; username: string; password: string }
  | { mode: "mtls"; cert: string | Buffer; key: string | Buffer };

export interface UfmTlsOptions {
  /** PEM bundle UFM's certificate must chain to (default: Node's trusted roots). */
  ca?: string | Buffer;
  /** Accept any server certificate. Must be asked for explicitly. */
  allowInsecure?: boolean;
}

export interface UfmClientOptions {
  /** UFM base URL (`https://ufm.example`); a path is kept as a prefix (reverse proxies). */
  endpoint: string;
  auth: UfmClientAuth;
  tls?: UfmTlsOptions;
  /** Connect and per-request timeout (NICo: 10 s). */
  timeoutMs?: number;
  logger?: Logger;
  /** Name used in error messages (the fabric definition's). */
  fabric?: string;
}

export interface UfmRequestOptions {
  signal?: AbortSignal;
}

export interface UfmPartitionOptions extends UfmRequestOptions {
  guidsData?: boolean;
  qosConf?: boolean;
}

export interface UfmRawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const EXCERPT = 300;

/**
 * A client for the UFM REST API endpoints NICo uses. It only speaks the wire protocol: typed payloads in and
 * out, UFM's quirks handled (200 `{}` for a missing resource, the combined GUID + QoS listing refused), and
 * every failure a contract error. Secrets never reach a log line or an error message.
 */
export class UfmClient {
  readonly basePath: string;
  private readonly fabric: string;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly authorization: string | undefined;
  private readonly secrets: string[];

  constructor(options: UfmClientOptions) {
    const url = new URL(options.endpoint);
    const prefix = url.pathname.replace(/\/+$/, "");
    this.basePath = `${prefix}${options.auth.mode === "token" ? "/ufmRestV3" : "/ufmRest"}`;
    this.fabric = options.fabric ?? "ufm";
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.logger = options.logger ?? silentLogger;
    const { auth, tls = {} } = options;
    if (auth.mode === "token") this.authorization = `Basic ${auth.token}`;
    else if (auth.mode === "basic")
      this.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
    this.secrets = [
      ...(auth.mode === "token" ? [auth.token] : []),
      ...(auth.mode === "basic" ? [auth.password] : []),
      ...(this.authorization ? [this.authorization.slice("Basic ".length)] : []),
    ].filter((secret) => secret.length >= 3);
    this.pool = new Pool(url.origin, {
      connections: 4,
      keepAliveTimeout: 30_000,
      connect: {
        timeout: this.timeoutMs,
        rejectUnauthorized: !tls.allowInsecure,
        ...(tls.ca ? { ca: tls.ca } : {}),
        ...(auth.mode === "mtls" ? { cert: auth.cert, key: auth.key } : {}),
      },
    });
  }

  getSmConfig(options: UfmRequestOptions = {}): Promise<UfmSmConfig> {
    return this.getObject<UfmSmConfig>("/app/smconf", "subnet manager config", options);
  }

  getVersion(options: UfmRequestOptions = {}): Promise<UfmVersion> {
    return this.getObject<UfmVersion>("/app/ufm_version", "version", options);
  }

  /**
   * Every partition keyed by `"0x…"` pkey. UFM answers the listing with both GUIDs and QoS wrongly (UFM bug
   * 5409095), so asking for both is refused: list with QoS, then get each partition with both.
   */
  async listPartitions(options: UfmPartitionOptions = {}): Promise<Record<string, UfmPartition>> {
    if (options.guidsData && options.qosConf) {
      throw new InvalidArgumentError(
        "UFM cannot list partitions with both guids_data and qos_conf (UFM bug 5409095); get each partition instead",
      );
    }
    // With no option UFM still needs one; NICo asks for QoS.
    const query = options.guidsData ? "guids_data=true" : "qos_conf=true";
    const body = await this.getJson(`/resources/pkeys?${query}`, options);
    if (!isObject(body)) throw this.badResponse("GET /resources/pkeys", "expected an object keyed by pkey");
    return body as Record<string, UfmPartition>;
  }

  /** Throws `fabric_not_found` for a partition UFM does not have (UFM answers 200 `{}`). */
  getPartition(pkey: Pkey, options: UfmPartitionOptions = {}): Promise<UfmPartition> {
    const query = [options.guidsData ? "guids_data=true" : "", options.qosConf ? "qos_conf=true" : ""]
      .filter(Boolean)
      .join("&");
    const path = `/resources/pkeys/${formatPkey(pkey)}${query ? `?${query}` : ""}`;
    return this.getObject<UfmPartition>(path, `partition ${formatPkey(pkey)}`, options);
  }

  async bindPorts(request: UfmBindRequest, options: UfmRequestOptions = {}): Promise<void> {
    await this.send("POST", "/resources/pkeys", request, options);
  }

  async unbindPorts(request: UfmUnbindRequest, options: UfmRequestOptions = {}): Promise<void> {
    await this.send("POST", "/actions/remove_guids_from_pkey", request, options);
  }

  async updatePartitionQos(request: UfmQosRequest, options: UfmRequestOptions = {}): Promise<void> {
    await this.send("PUT", "/resources/pkeys/qos_conf", request, options);
  }

  /** Host-facing ports only (`sys_type=Computer`): switch ports are not the core's business. */
  async listPorts(options: UfmRequestOptions = {}): Promise<UfmPort[]> {
    const body = await this.getJson("/resources/ports?sys_type=Computer", options);
    if (!Array.isArray(body)) throw this.badResponse("GET /resources/ports", "expected a list");
    return body as UfmPort[];
  }

  /** Any GET under the base path, status and body unchanged (for a UFM browser / debugging). */
  async rawGet(path: string, options: UfmRequestOptions = {}): Promise<UfmRawResponse> {
    const response = await this.request("GET", path, undefined, options);
    return { ...response, body: this.scrub(response.body) };
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  /** A typed GET: exactly `{}` means UFM has no such resource. */
  private async getObject<T>(path: string, what: string, options: UfmRequestOptions): Promise<T> {
    const body = await this.getJson(path, options);
    if (!isObject(body)) throw this.badResponse(`GET ${path}`, "expected an object");
    if (Object.keys(body).length === 0) {
      throw new InfiniBandFabricNotFoundError(this.fabric, "UFM resource", what, {
        details: { path: this.basePath + path },
      });
    }
    return body as T;
  }

  private async getJson(path: string, options: UfmRequestOptions): Promise<unknown> {
    const response = await this.send("GET", path, undefined, options);
    try {
      return JSON.parse(response.body);
    } catch {
      throw this.badResponse(`GET ${path}`, `malformed JSON: ${this.scrub(response.body.slice(0, EXCERPT))}`);
    }
  }

  /** Only 200 and 201 are success (as in NICo); anything else becomes the matching contract error. */
  private async send(
    method: "GET" | "POST" | "PUT",
    path: string,
    body: unknown,
    options: UfmRequestOptions,
  ): Promise<UfmRawResponse> {
    const response = await this.request(method, path, body, options);
    if (response.status === 200 || response.status === 201) return response;
    const what = `${method} ${this.basePath}${path}`;
    const excerpt = this.scrub(response.body.slice(0, EXCERPT));
    const message = `${what} answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`;
    const details = { httpStatus: response.status, path: this.basePath + path };
    if (response.status === 401 || response.status === 403)
      throw new InfiniBandFabricAuthError(this.fabric, message, { details });
    if (response.status === 404)
      throw new InfiniBandFabricNotFoundError(this.fabric, "UFM resource", what, { details });
    if (response.status >= 500) throw new InfiniBandFabricUnavailableError(this.fabric, message, { details });
    throw new InfiniBandFabricRejectedError(this.fabric, message, { details });
  }

  private async request(
    method: "GET" | "POST" | "PUT",
    path: string,
    body: unknown,
    options: UfmRequestOptions,
  ): Promise<UfmRawResponse> {
    const fullPath = this.basePath + path;
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.authorization) headers.Authorization = this.authorization;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const started = performance.now();
    try {
      const response = await this.pool.request({
        method,
        path: fullPath,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal,
      });
      const text = await response.body.text();
      // Never the headers or bodies: they carry the credentials and partition membership.
      this.logger.debug(
        {
          fabric: this.fabric,
          method,
          path: fullPath,
          status: response.statusCode,
          ms: Math.round(performance.now() - started),
        },
        "ufm request",
      );
      return { status: response.statusCode, headers: flatten(response.headers), body: text };
    } catch (error) {
      throw transportError(
        this.fabric,
        error,
        `${method} ${fullPath}`,
        this.timeoutMs,
        options.signal,
        (text) => this.scrub(text),
      );
    }
  }

  private badResponse(what: string, problem: string): InfiniBandFabricBadResponseError {
    return new InfiniBandFabricBadResponseError(this.fabric, `${what}: ${problem}`);
  }

  /** UFM error bodies may echo the request; the token and password never leave the client. */
  private scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
