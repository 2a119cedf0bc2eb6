import { once } from "node:events";
import {
  constants,
  createServer as createH2cServer,
  createSecureServer,
  type Http2SecureServer,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from "node:http2";
import { createServer } from "node:net";
import type { TLSSocket } from "node:tls";
import { status } from "@grpc/grpc-js";
import { type AgentTlsForTest, agentTlsForTest } from "@racksmith/server/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MachineTls, UnaryCallError, UnaryChannel } from "./unaryChannel.js";

let tls: AgentTlsForTest;
let server: Http2SecureServer | undefined;
const channels: UnaryChannel[] = [];

beforeAll(async () => {
  tls = await agentTlsForTest("dpu-1");
});

afterEach(async () => {
  for (const channel of channels.splice(0)) channel.close();
  server?.close();
  server = undefined;
});

type Answer = (stream: ServerHttp2Stream, body: Buffer) => void;

interface Listener {
  address: string;
  /** Each TLS connection: whether it resumed a session, and the client certificate's SAN. */
  handshakes: { reused: boolean; subjectAltName: string | undefined }[];
  sessions: ServerHttp2Session[];
  /** Each stream's end, with its RST code (0: ended cleanly). */
  streamCloses: Promise<number>[];
}

/** Echoes the caller's certificate SAN, as the agent listener knows it, in a gRPC answer. */
const echoSan: Answer = (stream) => {
  const socket = stream.session?.socket as TLSSocket;
  const san = Buffer.from(socket.getPeerCertificate().subjectaltname ?? "");
  const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, san.length]), san]);
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  stream.end(framed);
};

/** An mTLS HTTP/2 listener like the agent one, answering each call as `answers` says (the last one repeats). */
async function listen(...answers: Answer[]): Promise<Listener> {
  const listener: Listener = { address: "", handshakes: [], sessions: [], streamCloses: [] };
  server = createSecureServer({
    ca: tls.caCertificatePem,
    cert: tls.listener.certificatePem,
    key: tls.listener.privateKeyPem,
    requestCert: true,
    rejectUnauthorized: true,
  });
  server.on("secureConnection", (socket: TLSSocket) => {
    listener.handshakes.push({
      reused: socket.isSessionReused(),
      subjectAltName: socket.getPeerCertificate().subjectaltname,
    });
  });
  server.on("session", (session) => listener.sessions.push(session));
  let calls = 0;
  server.on("stream", (stream) => {
    const answer = answers[Math.min(calls, answers.length - 1)] as Answer;
    calls += 1;
    // A stream closed with an error code also emits it: the test reads the code instead.
    stream.on("error", () => undefined);
    listener.streamCloses.push(
      new Promise((resolve) => stream.on("close", () => resolve(stream.rstCode ?? 0))),
    );
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => answer(stream, Buffer.concat(chunks)));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  listener.address = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return listener;
}

function channelTo(
  address: string,
  caCertificatePem = tls.caCertificatePem,
  onHandshake?: (r: boolean) => void,
) {
  const machineTls: MachineTls = {
    caCertificatePem,
    privateKeyPem: tls.machine.privateKeyPem,
    certificatePem: tls.machine.certificatePem,
    serverName: "localhost",
  };
  const channel = new UnaryChannel(address, machineTls, onHandshake);
  channels.push(channel);
  return channel;
}

function call(channel: UnaryChannel, signal = new AbortController().signal, deadline = Date.now() + 10_000) {
  return channel.call({ path: "/test.Echo/Echo", message: Buffer.from("x"), metadata: {}, deadline, signal });
}

function failure(promise: Promise<unknown>): Promise<UnaryCallError> {
  return promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(UnaryCallError);
      return error as UnaryCallError;
    },
  );
}

describe("UnaryChannel", () => {
  it("answers over mTLS, resuming its last session after the server closed the connection", async () => {
    const listener = await listen(echoSan);
    const seen: boolean[] = [];
    const channel = channelTo(listener.address, tls.caCertificatePem, (resumed) => seen.push(resumed));
    expect(String(await call(channel))).toContain("spiffe://racksmith/machine/dpu-1");
    // The listener's idle close: its session goes, and with it the connection.
    const first = listener.sessions[0] as ServerHttp2Session;
    first.close();
    await once(first, "close");
    expect(String(await call(channel))).toContain("spiffe://racksmith/machine/dpu-1");
    expect(listener.handshakes.map((handshake) => handshake.reused)).toEqual([false, true]);
    expect(seen).toEqual([false, true]);
    for (const handshake of listener.handshakes) {
      expect(handshake.subjectAltName).toContain("spiffe://racksmith/machine/dpu-1");
    }
  });

  it("keeps sessions per channel: a machine's never resumes another's", async () => {
    const listener = await listen(echoSan);
    await call(channelTo(listener.address));
    await call(channelTo(listener.address));
    expect(listener.handshakes.map((handshake) => handshake.reused)).toEqual([false, false]);
  });

  it("sends a call again on a new connection when the server refused it going away", async () => {
    // An idle close racing the call: the stream refused, the connection going away.
    const refuse: Answer = (stream) => {
      stream.close(constants.NGHTTP2_REFUSED_STREAM);
      stream.session?.close();
    };
    const listener = await listen(echoSan, refuse, echoSan);
    const channel = channelTo(listener.address);
    await call(channel);
    expect(String(await call(channel))).toContain("dpu-1");
    expect(listener.streamCloses).toHaveLength(3);
    expect(listener.handshakes).toHaveLength(2);
  });

  it("does not send a refused call again on a connection that never answered", async () => {
    const listener = await listen((stream) => stream.close(constants.NGHTTP2_REFUSED_STREAM));
    const error = await failure(call(channelTo(listener.address)));
    expect(error.code).toBe(status.UNAVAILABLE);
    expect(listener.streamCloses).toHaveLength(1);
  });

  it("gives the server's status and decoded message, from a trailers-only answer", async () => {
    const listener = await listen((stream) =>
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": "5",
          "grpc-message": "machine%20gone",
        },
        { endStream: true },
      ),
    );
    const error = await failure(call(channelTo(listener.address)));
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.details).toBe("machine gone");
  });

  it("maps an HTTP status other than 200 to gRPC's code", async () => {
    const listener = await listen((stream) => stream.respond({ ":status": 503 }, { endStream: true }));
    expect((await failure(call(channelTo(listener.address)))).code).toBe(status.UNAVAILABLE);
  });

  it("ends at the deadline, cancelling the stream", async () => {
    const listener = await listen(() => undefined);
    const error = await failure(call(channelTo(listener.address), undefined, Date.now() + 50));
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    expect(await listener.streamCloses[0]).toBe(constants.NGHTTP2_CANCEL);
  });

  it("cancels the stream when the caller aborts", async () => {
    const listener = await listen(() => undefined);
    const abort = new AbortController();
    const pending = failure(call(channelTo(listener.address), abort.signal));
    await new Promise<void>((resolve) => server?.once("stream", () => resolve()));
    abort.abort();
    expect((await pending).code).toBe(status.CANCELLED);
    expect(await listener.streamCloses[0]).toBe(constants.NGHTTP2_CANCEL);
  });

  it("is UNAVAILABLE where nothing listens, and where the server's certificate is not its CA's", async () => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const dead = `127.0.0.1:${(probe.address() as { port: number }).port}`;
    await new Promise((resolve) => probe.close(resolve));
    expect((await failure(call(channelTo(dead)))).code).toBe(status.UNAVAILABLE);

    const stranger = await agentTlsForTest("dpu-2");
    const listener = await listen(echoSan);
    expect((await failure(call(channelTo(listener.address, stranger.caCertificatePem)))).code).toBe(
      status.UNAVAILABLE,
    );
    expect(listener.streamCloses).toHaveLength(0);
  });

  it("calls over plain HTTP/2 without TLS, with the caller's metadata", async () => {
    const plain = createH2cServer();
    const seen: (string | string[] | undefined)[] = [];
    plain.on("stream", (stream, headers) => {
      seen.push(headers.authorization, headers["grpc-timeout"], headers.te);
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(Buffer.from([0, 0, 0, 0, 2, 111, 107]));
    });
    plain.listen(0, "127.0.0.1");
    await once(plain, "listening");
    const channel = new UnaryChannel(`127.0.0.1:${(plain.address() as { port: number }).port}`);
    channels.push(channel);
    try {
      const answer = await channel.call({
        path: "/test.Echo/Echo",
        message: Buffer.from("x"),
        metadata: { authorization: "Bearer t" },
        deadline: Date.now() + 30_000,
        signal: new AbortController().signal,
      });
      expect(String(answer)).toBe("ok");
      expect(seen[0]).toBe("Bearer t");
      expect(seen[1]).toMatch(/^\d+m$/);
      expect(seen[2]).toBe("trailers");
    } finally {
      channel.close();
      plain.close();
    }
  });
});
