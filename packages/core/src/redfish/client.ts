import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { FormData } from "undici";
import { InvalidArgumentError } from "../errors/index.js";
import { type Logger, redactUrl, scrubSecrets, silentLogger } from "../logging/index.js";
import {
  type BmcConnectionPool,
  type EndpointSlot,
  sharedBmcConnectionPool,
  type TlsOptions,
} from "./connectionPool.js";
import {
  extendedInfoOf,
  PasswordChangeRequiredError,
  RedfishAbortedError,
  RedfishConnectionError,
  RedfishHttpError,
  RedfishMalformedResponseError,
  RedfishTimeoutError,
} from "./errors.js";
import { normalizeEtag } from "./etag.js";
import { toRequestPath, withQuery } from "./path.js";
import { type CachedRead, ReadCache } from "./readCache.js";
import { type RequestSignal, requestSignal } from "./requestSignal.js";
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isIdempotent,
  isRetryableStatus,
  type RetryPolicy,
  retryAfterMs,
} from "./retry.js";
import { SessionAuth } from "./sessionAuth.js";
import { type RedfishTaskResult, type TaskWaitOptions, waitForTask } from "./taskMonitor.js";
import type { RedfishObject } from "./types.js";

export interface RedfishCredentials {
  username: string;
  password: string;
}

export type RedfishAuthMode = "basic" | "session" | "none";

export interface RedfishClientOptions {
  /** `https://10.0.0.5`, `10.0.0.5:8443` (https assumed) or `http://127.0.0.1:8000`. */
  address: string;
  credentials?: RedfishCredentials;
  /** Default: `basic` when credentials are given, else `none`. */
  auth?: RedfishAuthMode;
  tls?: TlsOptions;
  /** Requests in flight to this BMC across every client in the process (default 4). */
  maxConcurrency?: number;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  pool?: BmcConnectionPool;
  /**
   * Keep the BMC's connections open a while after `close()` for the next client (default true: a lifecycle
   * step every few seconds). False closes them at once when no other client uses them: a caller that comes
   * back in a minute (the BMC monitor) would otherwise hold sockets, and their TLS state, for every BMC.
   */
  keepConnections?: boolean;
  userAgent?: string;
  /**
   * Dial this origin instead of the BMC's address, naming the BMC in `Forwarded: host=…` (a BMC proxy, or
   * a fleet of virtual BMCs behind one listener). The concurrency cap stays per BMC address.
   */
  connectVia?: string;
  /**
   * Aborts every request of this client when it fires (an exploration's deadline): requests in flight,
   * waiting for the concurrency cap or between retries end at once with `RedfishAbortedError`, later ones
   * fail without being sent. `close()` still logs a session out (within the request timeout).
   */
  signal?: AbortSignal;
}

export type IfMatch = "auto" | "*" | { etag: string };

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Overrides the client's request timeout for this call (uploads, slow actions). */
  timeoutMs?: number;
  /** Send this request without authentication (service root, `$metadata`). */
  anonymous?: boolean;
  /** `text` accepts any body (XML documents); default `json` rejects a 2xx GET whose body is not a JSON object. */
  responseType?: "json" | "text";
  /**
   * Values scrubbed from any error this request raises. Secret-looking fields of the JSON body (`Password`,
   * `NewPassword`, …) are added automatically: a BMC may echo them back.
   */
  secrets?: readonly string[];
  /** Aborts this request (`RedfishAbortedError`), as the client's own `signal` does. */
  signal?: AbortSignal;
}

export interface RedfishResponse<T = unknown> {
  status: number;
  path: string;
  headers: Record<string, string>;
  body: T | undefined;
  etag?: string;
  location?: string;
}

export interface MultipartUpload {
  /** JSON sent as the `UpdateParameters` part. */
  parameters: Record<string, unknown>;
  file: { filename: string; data: Uint8Array | Blob };
}

const DEFAULTS = { maxConcurrency: 4, connectTimeoutMs: 10_000, requestTimeoutMs: 60_000 };
const EXCERPT = 400;

/**
 * A Redfish client for one BMC endpoint: shared keep-alive pool and concurrency cap, timeouts, retries of
 * idempotent requests, Basic or Session auth, ETag handling, collections, task monitors and multipart
 * upload. Every failure is a typed error; no credential or token ever appears in an error or a log line.
 */
export class RedfishClient {
  readonly origin: string;
  /** The address as it may be printed (credentials removed). */
  readonly displayAddress: string;
  private readonly slot: EndpointSlot;
  private readonly logger: Logger;
  private readonly retryPolicy: RetryPolicy;
  private readonly requestTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly credentials: RedfishCredentials | undefined;
  private readonly authMode: RedfishAuthMode;
  private readonly session: SessionAuth | undefined;
  private readonly userAgent: string;
  private readonly forwardedHost: string | undefined;
  /** The client's abort signal (see {@link RedfishClientOptions.signal}). */
  readonly signal: AbortSignal | undefined;
  private readonly keepConnections: boolean;
  private closed = false;
  /** GET answers shared while a {@link readingOnce} scope runs. */
  private readCache: ReadCache | undefined;
  private readScopes = 0;

  constructor(options: RedfishClientOptions) {
    const { origin, credentials } = parseAddress(options.address);
    this.origin = origin;
    this.displayAddress = redactUrl(origin);
    this.credentials = options.credentials ?? credentials;
    this.authMode = options.auth ?? (this.credentials ? "basic" : "none");
    if (this.authMode !== "none" && !this.credentials) {
      throw new InvalidArgumentError(`${this.authMode} authentication needs a username and password`);
    }
    this.logger = options.logger ?? silentLogger;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
    this.userAgent = options.userAgent ?? "racksmith";
    this.signal = options.signal;
    this.keepConnections = options.keepConnections ?? true;
    // Every request waiting for a slot listens to it: dozens at once are expected, not a leak.
    if (options.signal) setMaxListeners(0, options.signal);
    const connectOrigin = options.connectVia ? parseAddress(options.connectVia).origin : undefined;
    this.forwardedHost = connectOrigin ? new URL(origin).host : undefined;
    this.slot = (options.pool ?? sharedBmcConnectionPool).acquire(origin, {
      maxConcurrency: options.maxConcurrency ?? DEFAULTS.maxConcurrency,
      connectTimeoutMs: this.connectTimeoutMs,
      tls: options.tls ?? {},
      ...(connectOrigin ? { connectOrigin } : {}),
    });
    this.session =
      this.authMode === "session" && this.credentials
        ? new SessionAuth(this.credentials, (method, path, request) =>
            this.send(method, toRequestPath(path), request, false),
          )
        : undefined;
  }

  /** The concurrency limiter shared with every other client of this BMC. */
  get limiter(): EndpointSlot["limiter"] {
    return this.slot.limiter;
  }

  /** GET a resource; the body must be a JSON object. */
  async get<T extends RedfishObject = RedfishObject>(path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.readObject<T>(path, options, false)).body as T;
  }

  /** GET a resource with its headers (ETag, Allow, …). */
  async getResponse<T extends RedfishObject = RedfishObject>(
    path: string,
    options: RequestOptions = {},
  ): Promise<RedfishResponse<T>> {
    return this.readObject<T>(path, options, true);
  }

  /**
   * Runs `work` with every plain GET (no options) answered once: a resource asked for again, or while its
   * request is in flight, comes from the first answer (each caller gets its own copy), and members of a
   * collection read with `$expand` count as read. Any other method empties the cache: `work` sees its writes.
   * For a unit of work that reads a BMC's state at one moment, such as an exploration.
   */
  async readingOnce<T>(work: () => Promise<T>): Promise<T> {
    this.readScopes++;
    this.readCache ??= new ReadCache();
    try {
      return await work();
    } finally {
      if (--this.readScopes === 0) this.readCache = undefined;
    }
  }

  private async readObject<T extends RedfishObject>(
    path: string,
    options: RequestOptions,
    needHeaders: boolean,
  ): Promise<RedfishResponse<T>> {
    const cache = this.readCache;
    const response =
      cache && Object.keys(options).length === 0
        ? await this.cachedGet(cache, path, needHeaders)
        : await this.request("GET", path, options);
    if (response.body === undefined || typeof response.body !== "object" || Array.isArray(response.body)) {
      throw new RedfishMalformedResponseError(
        "GET",
        response.path,
        response.body === undefined ? "empty body" : "not a JSON object",
        excerptOf(response.body),
      );
    }
    const etag =
      response.etag ?? normalizeEtag((response.body as RedfishObject)["@odata.etag"] as string | undefined);
    return { ...(response as RedfishResponse<T>), ...(etag ? { etag } : {}) };
  }

  /** GET a non-JSON document (`$metadata`). */
  async getText(path: string, options: RequestOptions = {}): Promise<string> {
    const response = await this.request("GET", path, {
      ...options,
      responseType: "text",
      headers: { Accept: "application/xml, */*", ...options.headers },
    });
    return typeof response.body === "string" ? response.body : "";
  }

  async post(path: string, body: unknown, options: RequestOptions = {}): Promise<RedfishResponse> {
    return this.request("POST", path, { ...options, body });
  }

  async delete(path: string, options: RequestOptions = {}): Promise<RedfishResponse> {
    return this.request("DELETE", path, options);
  }

  /**
   * PATCH with optional `If-Match`: `auto` reads the resource's ETag first (no header if it has none), `*`
   * matches any version, or pass the ETag you read. Without `ifMatch`, a 428 (precondition required) answer
   * is retried once with the current ETag.
   */
  async patch(
    path: string,
    body: unknown,
    options: RequestOptions & { ifMatch?: IfMatch } = {},
  ): Promise<RedfishResponse> {
    const ifMatchHeader = await this.resolveIfMatch(path, options.ifMatch);
    const headers = { ...options.headers, ...(ifMatchHeader ? { "If-Match": ifMatchHeader } : {}) };
    try {
      return await this.request("PATCH", path, { ...options, headers, body });
    } catch (error) {
      if (options.ifMatch === undefined && error instanceof RedfishHttpError && error.httpStatus === 428) {
        const etag = await this.resolveIfMatch(path, "auto");
        return this.request("PATCH", path, {
          ...options,
          headers: { ...headers, "If-Match": etag ?? "*" },
          body,
        });
      }
      throw error;
    }
  }

  /** A GET through the read cache: the caller whose request went out gets its answer, the others a copy. */
  private async cachedGet(cache: ReadCache, path: string, needHeaders: boolean): Promise<RedfishResponse> {
    const requestPath = toRequestPath(path);
    const own: { response?: RedfishResponse } = {};
    const read = await cache.read(
      requestPath,
      async (): Promise<CachedRead> => {
        const { response, text } = await this.exchange("GET", requestPath, {});
        own.response = response;
        const { body: _body, ...rest } = response;
        return { ...rest, text, complete: true };
      },
      needHeaders,
    );
    if (own.response) return own.response;
    const { text, complete: _complete, ...rest } = read;
    return { ...rest, headers: { ...read.headers }, body: text.trim() === "" ? undefined : JSON.parse(text) };
  }

  /** POST a multipart firmware upload (`UpdateParameters` JSON part + `UpdateFile` part); never retried. */
  async postMultipart(
    path: string,
    upload: MultipartUpload,
    options: RequestOptions = {},
  ): Promise<RedfishResponse> {
    const form = new FormData();
    form.append(
      "UpdateParameters",
      new Blob([JSON.stringify(upload.parameters)], { type: "application/json" }),
      "parameters.json",
    );
    const data = upload.file.data instanceof Blob ? upload.file.data : new Blob([upload.file.data]);
    form.append("UpdateFile", new Blob([data], { type: "application/octet-stream" }), upload.file.filename);
    return this.request("POST", path, { ...options, body: form });
  }

  /**
   * Every member `@odata.id` of a collection, following `Members@odata.nextLink`. With `expand` (for a BMC
   * that advertises `$expand`) the collection is read with `$expand=.($levels=1)`: inside
   * {@link readingOnce}, the members it carries are then read without a request of their own.
   */
  async listMembers(path: string, options: { expand?: boolean } = {}): Promise<string[]> {
    const start = options.expand ? withQuery(toRequestPath(path), "$expand=.($levels=1)") : path;
    const ids: string[] = [];
    for await (const page of this.collectionPages(start)) {
      for (const member of page) {
        const id = member["@odata.id"];
        if (typeof id === "string") ids.push(id);
        if (options.expand && typeof id === "string" && isExpanded(member)) {
          this.readCache?.seed(toRequestPath(id), member);
        }
      }
    }
    return ids;
  }

  /**
   * Every member of a collection as a resource. With `expand`, asks for `$expand=.($levels=1)` and fetches
   * only the members the BMC did not expand; members are fetched within the concurrency cap either way.
   */
  async getMembers<T extends RedfishObject = RedfishObject>(
    path: string,
    options: { expand?: boolean } = {},
  ): Promise<T[]> {
    const start = options.expand ? withQuery(toRequestPath(path), "$expand=.($levels=1)") : path;
    const members: RedfishObject[] = [];
    for await (const page of this.collectionPages(start)) members.push(...page);
    return Promise.all(
      members.map(async (member) => {
        const id = member["@odata.id"];
        if (isExpanded(member) || typeof id !== "string") return member as T;
        return this.get<T>(id);
      }),
    );
  }

  private async *collectionPages(path: string): AsyncGenerator<RedfishObject[]> {
    let next: string | undefined = path;
    const seen = new Set<string>();
    while (next && !seen.has(next)) {
      seen.add(next);
      const page: RedfishObject = await this.get(next);
      const members = page.Members;
      // OpenBMC answers `"Members": null` for an empty collection.
      if (members !== undefined && members !== null && !Array.isArray(members)) {
        throw new RedfishMalformedResponseError(
          "GET",
          toRequestPath(next),
          "Members is not an array",
          excerptOf(page),
        );
      }
      yield ((members as unknown[] | null | undefined) ?? []).filter(
        (m): m is RedfishObject => !!m && typeof m === "object",
      );
      const link = page["Members@odata.nextLink"];
      next = typeof link === "string" && link ? link : undefined;
    }
  }

  /** Polls a task monitor (the `Location` of a 202) until the task ends; see {@link waitForTask}. */
  async waitForTask(location: string, options: TaskWaitOptions = {}): Promise<RedfishTaskResult> {
    return waitForTask(this, location, options);
  }

  /** Ends the session (if any) and releases this client's share of the connection pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.session?.logout();
    } catch (error) {
      this.logger.debug(
        { bmc: this.displayAddress, err: (error as Error).message },
        "redfish session logout failed",
      );
    } finally {
      this.slot.release({ linger: this.keepConnections });
    }
  }

  /** One request with auth, retries and re-login; the body of a 2xx is parsed as JSON when it is JSON. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<RedfishResponse> {
    return (await this.exchange(method, path, options)).response;
  }

  /** {@link request}, with the body's text as received. */
  private async exchange(
    method: string,
    path: string,
    options: RequestOptions,
  ): Promise<{ response: RedfishResponse; text: string }> {
    if (this.closed) throw new InvalidArgumentError(`RedfishClient for ${this.displayAddress} is closed`);
    const write = method !== "GET" && method !== "HEAD";
    // A write may change what was read: nothing read before it (or while it runs) is reused.
    if (write) this.readCache?.clear();
    try {
      const requestPath = toRequestPath(path);
      const response = await this.send(method, requestPath, options, !options.anonymous);
      if (response.status === 401 && this.session && !options.anonymous) {
        // The session expired or was revoked: log in again once and replay.
        this.session.invalidate(response.authToken);
        const replay = await this.send(method, requestPath, options, true);
        return this.finish(method, requestPath, replay, options);
      }
      return this.finish(method, requestPath, response, options);
    } finally {
      if (write) this.readCache?.clear();
    }
  }

  private finish(
    method: string,
    path: string,
    response: RawResponse,
    options: RequestOptions,
  ): { response: RedfishResponse; text: string } {
    if (response.status >= 200 && response.status < 300) {
      const { authToken: _token, text, ...rest } = response;
      return { response: rest, text };
    }
    throw this.httpError(method, path, response, [
      ...(options.secrets ?? []),
      ...secretValuesOf(options.body),
    ]);
  }

  private httpError(
    method: string,
    path: string,
    response: RawResponse,
    secrets: readonly string[],
  ): RedfishHttpError {
    // A BMC may echo what it was sent (tokens, passwords) into its messages: scrub them before they travel.
    const scrub = (text: string): string => scrubSecrets(this.scrub(text), secrets);
    const messages = extendedInfoOf(response.body).map((m) => ({
      ...m,
      ...(m.message !== undefined ? { message: scrub(m.message) } : {}),
      ...(m.resolution !== undefined ? { resolution: scrub(m.resolution) } : {}),
      ...(m.messageArgs !== undefined ? { messageArgs: m.messageArgs.map(scrub) } : {}),
    }));
    const args = {
      method,
      path,
      httpStatus: response.status,
      messages,
      bodyExcerpt: scrub(excerptOf(response.body ?? response.text)),
    };
    const isPasswordChange =
      response.status === 403 && messages.some((m) => /PasswordChangeRequired$/.test(m.messageId));
    return isPasswordChange ? new PasswordChangeRequiredError(args) : new RedfishHttpError(args);
  }

  /** Sends with retries; returns any HTTP status (the caller decides), throws only transport errors. */
  private async send(
    method: string,
    path: string,
    options: RequestOptions,
    authenticated: boolean,
  ): Promise<RawResponse> {
    const retryable =
      isIdempotent(method) && !(options.body instanceof FormData || options.body instanceof Uint8Array);
    const signal = this.abortSignal(options);
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.sendOnce(method, path, options, authenticated, signal);
        if (retryable && attempt < this.retryPolicy.retries && isRetryableStatus(response.status)) {
          const wait =
            retryAfterMs(response.headers["retry-after"], this.retryPolicy) ??
            backoffDelay(this.retryPolicy, attempt);
          this.logger.debug(
            { bmc: this.displayAddress, method, path, status: response.status, wait },
            "redfish retry",
          );
          await this.pause(wait, method, path, signal);
          continue;
        }
        return response;
      } catch (error) {
        if (!(retryable && attempt < this.retryPolicy.retries && isRetryableTransportError(error)))
          throw error;
        const wait = backoffDelay(this.retryPolicy, attempt);
        this.logger.debug(
          { bmc: this.displayAddress, method, path, err: (error as Error).message, wait },
          "redfish retry after transport error",
        );
        await this.pause(wait, method, path, signal);
      }
    }
  }

  /**
   * The signal aborting one request: the client's and the request's own. A closed client's last request (the
   * session logout of `close()`) ignores the client's signal, so an aborted exploration still logs out.
   */
  private abortSignal(options: RequestOptions): AbortSignal | undefined {
    const own = this.closed ? undefined : this.signal;
    if (own && options.signal) return AbortSignal.any([own, options.signal]);
    return own ?? options.signal;
  }

  /** The backoff between retries; ends early (RedfishAbortedError) when the request is aborted. */
  private async pause(ms: number, method: string, path: string, signal: AbortSignal | undefined) {
    if (!signal) return sleep(ms);
    try {
      await sleep(ms, undefined, { signal });
    } catch (error) {
      throw this.abortedError(`${method} ${path}`, signal, error);
    }
  }

  private abortedError(what: string, signal: AbortSignal, cause?: unknown): RedfishAbortedError {
    const { reason } = signal;
    const text = reason instanceof Error ? reason.message : reason === undefined ? "" : String(reason);
    return new RedfishAbortedError(this.displayAddress, what, this.scrub(text), { cause: cause ?? reason });
  }

  private async sendOnce(
    method: string,
    path: string,
    options: RequestOptions,
    authenticated: boolean,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    if (signal?.aborted) throw this.abortedError(`${method} ${path}`, signal);
    const authHeaders = authenticated ? await this.authHeaders() : { headers: {} };
    const headers: Record<string, string> = {
      Accept: "application/json",
      "OData-Version": "4.0",
      "User-Agent": this.userAgent,
      ...(this.forwardedHost ? { Forwarded: `host="${this.forwardedHost}"` } : {}),
      ...options.headers,
      ...authHeaders.headers,
    };
    let body: string | FormData | Uint8Array | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body instanceof Uint8Array) {
      body = options.body;
      headers["Content-Type"] ??= "application/octet-stream";
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] = "application/json";
    }
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const release = await this.slot.limiter.acquire(signal).catch((error: unknown) => {
      throw signal?.aborted ? this.abortedError(`${method} ${path}`, signal, error) : error;
    });
    const started = performance.now();
    let ending: RequestSignal | undefined;
    try {
      // A request that got its slot after the abort is not sent.
      if (signal?.aborted) throw this.abortedError(`${method} ${path}`, signal);
      ending = requestSignal(timeoutMs, signal);
      const response = await this.slot.dispatcher.request({
        method: method as "GET",
        path,
        headers,
        body: body ?? null,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: ending.signal,
      });
      const text = await response.body.text();
      const responseHeaders = flattenHeaders(response.headers);
      this.logger.debug(
        {
          bmc: this.displayAddress,
          method,
          path,
          status: response.statusCode,
          ms: Math.round(performance.now() - started),
        },
        "redfish request",
      );
      const parsed =
        options.responseType === "text" ? { value: text } : parseBody(text, responseHeaders["content-type"]);
      if (response.statusCode >= 200 && response.statusCode < 300 && method === "GET" && parsed.malformed) {
        throw new RedfishMalformedResponseError(
          method,
          path,
          parsed.malformed,
          this.scrub(text.slice(0, EXCERPT)),
        );
      }
      const etag = normalizeEtag(responseHeaders.etag);
      const location = responseHeaders.location;
      return {
        status: response.statusCode,
        path,
        headers: responseHeaders,
        body: parsed.value,
        text,
        authToken: authHeaders.token,
        ...(etag ? { etag } : {}),
        ...(location ? { location } : {}),
      };
    } catch (error) {
      throw this.transportError(error, method, path, timeoutMs, signal);
    } finally {
      ending?.done();
      release();
    }
  }

  private async authHeaders(): Promise<{ headers: Record<string, string>; token?: string }> {
    if (this.authMode === "basic" && this.credentials) {
      const { username, password } = this.credentials;
      return {
        headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` },
      };
    }
    if (this.session) {
      const token = await this.session.token();
      return { headers: { "X-Auth-Token": token }, token };
    }
    return { headers: {} };
  }

  private async resolveIfMatch(path: string, ifMatch: IfMatch | undefined): Promise<string | undefined> {
    if (ifMatch === undefined) return undefined;
    if (ifMatch === "*") return "*";
    if (ifMatch === "auto") return (await this.getResponse(path)).etag;
    return normalizeEtag(ifMatch.etag);
  }

  private transportError(
    error: unknown,
    method: string,
    path: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Error {
    if (
      error instanceof RedfishMalformedResponseError ||
      error instanceof RedfishHttpError ||
      error instanceof RedfishTimeoutError ||
      error instanceof RedfishConnectionError ||
      error instanceof RedfishAbortedError
    ) {
      return error;
    }
    const code = errorCode(error);
    const what = `${method} ${path}`;
    // The caller's abort, not the request timeout (both end the request through its signal).
    if (signal?.aborted) return this.abortedError(what, signal, error);
    if (code === "UND_ERR_CONNECT_TIMEOUT") {
      return new RedfishTimeoutError(this.displayAddress, "connect", this.connectTimeoutMs, what, {
        cause: error,
      });
    }
    if (
      code === "UND_ERR_HEADERS_TIMEOUT" ||
      code === "UND_ERR_BODY_TIMEOUT" ||
      code === "UND_ERR_ABORTED" ||
      (error as Error)?.name === "TimeoutError" ||
      (error as Error)?.name === "AbortError"
    ) {
      return new RedfishTimeoutError(this.displayAddress, "request", timeoutMs, what, { cause: error });
    }
    const reason = this.scrub((error as Error)?.message ?? String(error));
    return new RedfishConnectionError(this.displayAddress, code ? `${code}: ${reason}` : reason, {
      cause: error,
      ...(code ? { errno: code } : {}),
    });
  }

  private scrub(text: string): string {
    return scrubSecrets(text, [this.credentials?.password, this.session?.currentToken]);
  }
}

interface RawResponse extends RedfishResponse {
  text: string;
  authToken: string | undefined;
}

const TLS_ERROR = /CERT|SELF_SIGNED|TLS|SSL|UNABLE_TO_VERIFY/;

/** A collection member that carries more than its link: the BMC expanded it. */
function isExpanded(member: RedfishObject): boolean {
  return Object.keys(member).some((key) => !key.startsWith("@odata."));
}

function isRetryableTransportError(error: unknown): boolean {
  if (error instanceof RedfishTimeoutError) return error.phase === "connect";
  if (!(error instanceof RedfishConnectionError)) return false;
  const errno = String(error.details.errno ?? "");
  return !TLS_ERROR.test(errno) && errno !== "ENOTFOUND";
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function parseBody(
  text: string,
  contentType: string | undefined,
): { value: unknown; malformed?: string | undefined } {
  if (text.trim() === "") return { value: undefined };
  const looksJson = !contentType || /json/i.test(contentType) || /^\s*[[{]/.test(text);
  if (!looksJson) return { value: text, malformed: `content type ${contentType}` };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { value, malformed: "not a JSON object" };
    }
    return { value };
  } catch {
    return { value: text, malformed: "invalid JSON" };
  }
}

const SECRET_FIELD = /pass(word)?|secret|token/i;

/** String values of secret-looking fields anywhere in a JSON request body. */
function secretValuesOf(body: unknown, depth = 0): string[] {
  if (
    !body ||
    typeof body !== "object" ||
    depth > 8 ||
    body instanceof Uint8Array ||
    body instanceof FormData
  )
    return [];
  return Object.entries(body).flatMap(([key, value]) =>
    typeof value === "string" && SECRET_FIELD.test(key) ? [value] : secretValuesOf(value, depth + 1),
  );
}

function excerptOf(body: unknown): string {
  const text = typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body);
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/** Splits `https://user:pass@host:port/...` into an origin and credentials; https is assumed without a scheme. */
export function parseAddress(address: string): { origin: string; credentials?: RedfishCredentials } {
  const trimmed = address.trim();
  if (!trimmed) throw new InvalidArgumentError("BMC address is empty");
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidArgumentError(
      `BMC address ${JSON.stringify(redactUrl(trimmed))} is not a valid URL or host`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidArgumentError(
      `BMC address must use http or https, got ${url.protocol.replace(":", "")}`,
    );
  }
  const credentials = url.username
    ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
    : undefined;
  return { origin: url.origin, ...(credentials ? { credentials } : {}) };
}
