import { isRacksmithError, type Logger, silentLogger } from "@racksmith/core";
import {
  NvLinkFabricAuthError,
  NvLinkFabricBadResponseError,
  type NvLinkFabricError,
  NvLinkFabricNotFoundError,
  NvLinkFabricRejectedError,
  NvLinkFabricTimeoutError,
  NvLinkFabricUnavailableError,
} from "@racksmith/core/nvlink";
import { Pool } from "undici";
import type { NmxmConnectionSettings } from "../config/index.js";
import { parseJson } from "./parse.js";

/** How much of an error body an error message may quote. */
const EXCERPT = 200;

/** Network failures worth one more attempt (NICo's client retries a network error once). */
const NETWORK_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

export interface TransportRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Relative to the endpoint, without a leading slash: `nmx/v1/gpus`. */
  path: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Turns a 404 into `fabric_not_found` for this object. */
  notFound?: { what: string; id: string };
}

/**
 * HTTP to one NMX-M: a keep-alive pool, basic auth, TLS against the configured CA bundle unless
 * `allowInsecure`, a per-request timeout, a response size limit and one retry on a network error. Every
 * failure becomes an `NvLinkFabricError`; the password never appears in an error or a log line.
 */
export class NmxmTransport {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly authorization: string;

  constructor(
    private readonly settings: NmxmConnectionSettings,
    private readonly fabric: string,
    private readonly logger: Logger = silentLogger,
  ) {
    const url = new URL(settings.endpoint);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password}`).toString("base64")}`;
    this.pool = new Pool(url.origin, {
      connections: 4,
      connectTimeout: settings.timeoutMs,
      connect: {
        rejectUnauthorized: !settings.allowInsecure,
        ...(settings.ca !== undefined ? { ca: settings.ca } : {}),
      },
    });
  }

  /** Sends the request (once more after a network error) and returns the parsed JSON body. */
  async request(request: TransportRequest): Promise<unknown> {
    try {
      return await this.attempt(request);
    } catch (error) {
      if (!isNetworkError(error) || request.signal?.aborted) throw this.toFabricError(error, request);
      // A create retried after the connection dropped mid-request may reach NMX-M twice; the second one
      // then fails as an operation (its GPUs are taken), which the monitor handles like any failure.
      this.logger.debug(
        { fabric: this.fabric, method: request.method, path: request.path, error: errorCode(error) },
        "NMX-M network error, retrying once",
      );
      try {
        return await this.attempt(request);
      } catch (retryError) {
        throw this.toFabricError(retryError, request);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async attempt(request: TransportRequest): Promise<unknown> {
    const { method, path } = request;
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const started = performance.now();
    const response = await this.pool.request({
      method,
      path: `${this.basePath}/${path}`,
      headers: {
        Accept: "*/*",
        "User-Agent": "racksmith-fabric-nmxm",
        Authorization: this.authorization,
        ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: request.body === undefined ? null : JSON.stringify(request.body),
      headersTimeout: this.settings.timeoutMs,
      bodyTimeout: this.settings.timeoutMs,
      signal: request.signal ? AbortSignal.any([timeout, request.signal]) : timeout,
    });
    const text = await this.readBody(response.body, response.headers["content-length"], request);
    this.logger.debug(
      {
        fabric: this.fabric,
        method,
        path,
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
      },
      "NMX-M request",
    );
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw this.statusError(response.statusCode, text, request);
    if (text.trim() === "") return null;
    try {
      return parseJson(text);
    } catch {
      throw new NvLinkFabricBadResponseError(
        this.fabric,
        `${method} ${path}: response is not JSON: ${this.excerpt(text)}`,
        { details: { method, path } },
      );
    }
  }

  /** Reads the body, refusing (and abandoning) it as soon as it passes the size limit. */
  private async readBody(
    body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
    contentLength: string | string[] | undefined,
    request: TransportRequest,
  ): Promise<string> {
    const limit = this.settings.maxResponseBytes;
    const tooLarge = (): NvLinkFabricError =>
      new NvLinkFabricBadResponseError(
        this.fabric,
        `${request.method} ${request.path}: response is larger than maxResponseBytes (${limit})`,
        { details: { method: request.method, path: request.path, maxResponseBytes: limit } },
      );
    if (typeof contentLength === "string" && Number(contentLength) > limit) {
      body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  private statusError(status: number, text: string, request: TransportRequest): NvLinkFabricError {
    const what = `${request.method} ${request.path}`;
    const details = { method: request.method, path: request.path, httpStatus: status };
    const said = text.trim() ? `: ${this.excerpt(text)}` : "";
    if (status === 404 && request.notFound)
      return new NvLinkFabricNotFoundError(this.fabric, request.notFound.what, request.notFound.id, {
        details,
      });
    if (status === 401 || status === 403)
      return new NvLinkFabricAuthError(
        this.fabric,
        `${what}: HTTP ${status}, NMX-M refused the credentials (check username and passwordFile)`,
        { details },
      );
    if (status >= 500)
      return new NvLinkFabricUnavailableError(this.fabric, `${what}: HTTP ${status}${said}`, { details });
    return new NvLinkFabricRejectedError(this.fabric, `${what}: HTTP ${status}${said}`, { details });
  }

  private toFabricError(error: unknown, request: TransportRequest): Error {
    if (isFabricError(error)) return error;
    const what = `${request.method} ${request.path}`;
    const details = { method: request.method, path: request.path };
    // The caller's abort is the caller's business: hand its reason back unchanged.
    if (request.signal?.aborted && request.signal.reason instanceof Error) return request.signal.reason;
    const code = errorCode(error);
    const name = (error as Error | undefined)?.name;
    if (
      code === "UND_ERR_HEADERS_TIMEOUT" ||
      code === "UND_ERR_BODY_TIMEOUT" ||
      name === "TimeoutError" ||
      name === "AbortError"
    ) {
      return new NvLinkFabricTimeoutError(
        this.fabric,
        `${what}: no response within timeoutMs (${this.settings.timeoutMs} ms)`,
        { details, cause: error },
      );
    }
    const reason = this.scrub((error as Error | undefined)?.message ?? String(error));
    return new NvLinkFabricUnavailableError(
      this.fabric,
      `${what}: cannot reach NMX-M at ${this.settings.endpoint} (${code ? `${code}: ` : ""}${reason})`,
      { details: { ...details, ...(code ? { errno: code } : {}) }, cause: error },
    );
  }

  private excerpt(text: string): string {
    const flat = text.replace(/\s+/g, " ").trim();
    return this.scrub(flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat);
  }

  /** NMX-M might echo a request header back; never let the password or its basic-auth form through. */
  private scrub(text: string): string {
    let out = text;
    for (const secret of [this.settings.password, this.authorization.slice("Basic ".length)]) {
      if (secret.length >= 3) out = out.split(secret).join("[redacted]");
    }
    return out;
  }
}

function errorCode(error: unknown): string | undefined {
  const direct = (error as { code?: unknown } | undefined)?.code;
  if (typeof direct === "string") return direct;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof cause === "string" ? cause : undefined;
}

function isNetworkError(error: unknown): boolean {
  if (isFabricError(error)) return false;
  const code = errorCode(error);
  return code !== undefined && NETWORK_ERRORS.has(code);
}

function isFabricError(error: unknown): error is NvLinkFabricError {
  return isRacksmithError(error) && error.code.startsWith("fabric_");
}
