import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  connect as connectHttp2,
  constants,
  type IncomingHttpHeaders,
} from "node:http2";
import { connect as connectTls, createSecureContext, type SecureContext } from "node:tls";
import { status } from "@grpc/grpc-js";

/** A machine's mTLS identity and the agent listener's CA and name. */
export interface MachineTls {
  readonly caCertificatePem: string;
  readonly privateKeyPem: string;
  readonly certificatePem: string;
  /** The name the listener's certificate must carry (TLS checks no IP address). */
  readonly serverName: string;
}

/** One unary call: the method's path, the serialized request, metadata, the deadline (epoch ms) and the caller's abort. */
export interface UnaryRequest {
  readonly path: string;
  readonly message: Buffer;
  readonly metadata: Readonly<Record<string, string>>;
  readonly deadline: number;
  readonly signal: AbortSignal;
}

/** A call that ended without its answer: the gRPC status code and the server's (or this client's) details. */
export class UnaryCallError extends Error {
  constructor(
    readonly code: status,
    readonly details: string,
  ) {
    super(details);
    this.name = "UnaryCallError";
  }
}

/** What a gRPC client makes of an HTTP status other than 200 (gRPC's "HTTP to gRPC status code mapping"). */
const HTTP_TO_GRPC: Record<number, status> = {
  400: status.INTERNAL,
  401: status.UNAUTHENTICATED,
  403: status.PERMISSION_DENIED,
  404: status.UNIMPLEMENTED,
  429: status.UNAVAILABLE,
  502: status.UNAVAILABLE,
  503: status.UNAVAILABLE,
  504: status.UNAVAILABLE,
};

/** A stream the server never answered on a connection that had served calls before: safe to send again. */
class NotAnswered extends Error {
  constructor(
    readonly session: ClientHttp2Session,
    reason: string,
  ) {
    super(reason);
  }
}

/** gRPC's length-prefixed message: no compression, four bytes of length, the message. */
function frame(message: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed.writeUInt8(0, 0);
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, 5);
  return framed;
}

function unframe(body: Buffer): Buffer {
  if (body.length < 5) throw new UnaryCallError(status.INTERNAL, "the answer held no message");
  if (body[0] !== 0) throw new UnaryCallError(status.INTERNAL, "the answer was compressed");
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) throw new UnaryCallError(status.INTERNAL, "the answer was not one message");
  return body.subarray(5);
}

function grpcTimeout(ms: number): string {
  const whole = Math.max(1, Math.ceil(ms));
  return whole <= 99_999_999 ? `${whole}m` : `${Math.ceil(whole / 1000)}S`;
}

function decodeDetails(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The status an answered stream ended with: the trailers' (or a trailers-only answer's headers'). */
function statusOf(
  headers: IncomingHttpHeaders,
  trailers: IncomingHttpHeaders | undefined,
): UnaryCallError | null {
  const httpStatus = Number(headers[":status"]);
  if (httpStatus !== 200) {
    return new UnaryCallError(HTTP_TO_GRPC[httpStatus] ?? status.UNKNOWN, `HTTP status ${httpStatus}`);
  }
  const final = trailers ?? headers;
  const code = Number(final["grpc-status"]);
  if (!Number.isInteger(code)) return new UnaryCallError(status.UNKNOWN, "the answer carried no grpc-status");
  return code === status.OK ? null : new UnaryCallError(code, decodeDetails(final["grpc-message"]));
}

/**
 * Unary gRPC calls over one HTTP/2 connection to `address`, made on the first call and again after the
 * server closed it (the agent listener closes idle connections): a client for thousands of simulated agents,
 * each with its own connection, that does only what they need — no name resolution, load balancing or
 * channel state — so the simulation's CPU goes to the service it measures. Over TLS (`tls`) it resumes the
 * last connection's session, as agents on rustls or OpenSSL do by default: a full handshake sends, signs and
 * checks certificates both ways, a resumed one does not (the server still knows the client's certificate).
 */
export class UnaryChannel {
  private session: ClientHttp2Session | undefined;
  /** Whether {@link session} has answered a call: a stream it drops unanswered went out as it closed. */
  private answered = false;
  private readonly context: SecureContext | undefined;
  /** Where a TLS connection goes (`tls.connect` takes a host and a port, not an authority). */
  private readonly endpoint: { host: string; port: number };
  private tlsSession: Buffer | undefined;
  private closed = false;

  /** `onHandshake` hears of each TLS connection made, and whether it resumed a session. */
  constructor(
    private readonly address: string,
    private readonly tls?: MachineTls,
    private readonly onHandshake: (resumed: boolean) => void = () => undefined,
  ) {
    this.context = tls
      ? createSecureContext({ ca: tls.caCertificatePem, key: tls.privateKeyPem, cert: tls.certificatePem })
      : undefined;
    const { hostname, port } = new URL(`https://${address}`);
    this.endpoint = { host: hostname.replace(/^\[|\]$/g, ""), port: Number(port) };
  }

  /**
   * Sends the request and resolves with the answer (serialized), or rejects with a {@link UnaryCallError}: the
   * server's status, DEADLINE_EXCEEDED at the deadline, CANCELLED when the signal aborts, UNAVAILABLE when no
   * connection could be made or it broke before an answer.
   */
  async call(request: UnaryRequest): Promise<Buffer> {
    try {
      return await this.attempt(request);
    } catch (error) {
      if (!(error instanceof NotAnswered)) throw error;
      // The server closed the connection as the call went out (an idle close racing it): once more, anew.
      this.drop(error.session);
      error.session.close();
      return this.attempt(request).catch((again: unknown) => {
        throw again instanceof NotAnswered ? new UnaryCallError(status.UNAVAILABLE, again.message) : again;
      });
    }
  }

  close(): void {
    this.closed = true;
    this.session?.destroy();
    this.session = undefined;
  }

  private attempt({ path, message, metadata, deadline, signal }: UnaryRequest): Promise<Buffer> {
    if (this.closed) return Promise.reject(new UnaryCallError(status.UNAVAILABLE, "channel closed"));
    const headers = {
      ...metadata,
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      "grpc-timeout": grpcTimeout(deadline - Date.now()),
    };
    let session = this.connected();
    let stream: ClientHttp2Stream;
    try {
      stream = session.request(headers);
    } catch {
      // The session was already going away (its GOAWAY read, its close not yet heard): a new one takes the call.
      this.drop(session);
      session = this.connected();
      stream = session.request(headers);
    }
    // Read once the call has its session: a new session has answered nothing yet.
    const reused = this.answered;
    return new Promise<Buffer>((resolve, reject) => {
      let headers: IncomingHttpHeaders | undefined;
      let trailers: IncomingHttpHeaders | undefined;
      let failure: Error | undefined;
      const chunks: Buffer[] = [];
      let settled = false;
      const settle = (outcome: Error | Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onAbort = () => settle(new UnaryCallError(status.CANCELLED, "cancelled by the caller"));
      const timer = setTimeout(
        () => settle(new UnaryCallError(status.DEADLINE_EXCEEDED, "deadline exceeded")),
        Math.max(0, deadline - Date.now()),
      );
      signal.addEventListener("abort", onAbort, { once: true });
      stream.on("response", (received) => {
        headers = received;
      });
      stream.on("trailers", (received) => {
        trailers = received;
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => {
        failure = error;
      });
      stream.on("close", () => {
        if (settled) return;
        if (!headers) {
          const reason = `connection closed before an answer${failure ? `: ${failure.message}` : ""}`;
          return settle(
            reused ? new NotAnswered(session, reason) : new UnaryCallError(status.UNAVAILABLE, reason),
          );
        }
        if (this.session === session) this.answered = true;
        const error = statusOf(headers, trailers);
        if (error) return settle(error);
        try {
          settle(unframe(Buffer.concat(chunks)));
        } catch (bad) {
          settle(bad as Error);
        }
      });
      stream.end(frame(message));
    });
  }

  /** The open session, or a new one. */
  private connected(): ClientHttp2Session {
    const current = this.session;
    if (current && !current.closed && !current.destroyed) return current;
    const session = this.tls
      ? connectHttp2(`https://${this.address}`, { createConnection: () => this.tlsSocket() })
      : connectHttp2(`http://${this.address}`);
    this.session = session;
    this.answered = false;
    // A broken or closing connection serves no new call; its streams end on their own.
    session.on("error", () => this.drop(session));
    session.on("goaway", () => this.drop(session));
    session.on("close", () => this.drop(session));
    return session;
  }

  private drop(session: ClientHttp2Session): void {
    if (this.session === session) this.session = undefined;
  }

  private tlsSocket() {
    const tls = this.tls as MachineTls;
    const socket = connectTls({
      ...this.endpoint,
      secureContext: this.context,
      servername: tls.serverName,
      ALPNProtocols: ["h2"],
      ...(this.tlsSession ? { session: this.tlsSession } : {}),
    });
    // TLS 1.3 tickets come after the handshake, and again with every connection: the newest is kept.
    socket.on("session", (ticket: Buffer) => {
      this.tlsSession = ticket;
    });
    socket.once("secureConnect", () => this.onHandshake(socket.isSessionReused()));
    return socket;
  }
}
