import { once } from "node:events";
import { connect as connectTcp, type Socket } from "node:net";
import { createServer, type Server, type TLSSocket } from "node:tls";
import { Client, connectivityState, Server as GrpcServer, ServerCredentials } from "@grpc/grpc-js";
import { type AgentTlsForTest, agentTlsForTest } from "@racksmith/server/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ResumingTlsCredentials } from "./resumingCredentials.js";

interface Handshake {
  reused: boolean;
  subjectAltName: string | undefined;
}

let tls: AgentTlsForTest;
let server: Server | undefined;

beforeAll(async () => {
  tls = await agentTlsForTest("dpu-1");
});

afterEach(async () => {
  server?.close();
  server = undefined;
});

/**
 * An mTLS listener like the agent one that records each handshake, writes a byte (OpenSSL sends TLS 1.3 session
 * tickets with the server's first write, as an HTTP/2 listener's SETTINGS frame would be) and closes.
 */
async function startListener(certificate = tls.listener): Promise<{ port: number; handshakes: Handshake[] }> {
  const handshakes: Handshake[] = [];
  server = createServer(
    {
      ca: tls.caCertificatePem,
      cert: certificate.certificatePem,
      key: certificate.privateKeyPem,
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ["h2"],
    },
    (socket: TLSSocket) => {
      handshakes.push({
        reused: socket.isSessionReused(),
        subjectAltName: socket.getPeerCertificate().subjectaltname,
      });
      socket.end("x");
    },
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as { port: number }).port, handshakes };
}

function credentialsFor(
  caCertificatePem = tls.caCertificatePem,
  onHandshake?: (resumed: boolean) => void,
): ResumingTlsCredentials {
  return new ResumingTlsCredentials(
    {
      caCertificatePem,
      privateKeyPem: tls.machine.privateKeyPem,
      certificatePem: tls.machine.certificatePem,
      serverName: "localhost",
    },
    onHandshake,
  );
}

const ECHO = {
  path: "/test.Echo/Echo",
  requestStream: false,
  responseStream: false,
  requestSerialize: (value: Buffer) => value,
  requestDeserialize: (value: Buffer) => value,
  responseSerialize: (value: Buffer) => value,
  responseDeserialize: (value: Buffer) => value,
} as const;

/** A grpc-js listener with the agent listener's TLS that closes connections idle for 50 ms; echoes the caller's SAN. */
async function startGrpcListener(): Promise<{ server: GrpcServer; address: string }> {
  const grpc = new GrpcServer({ "grpc.max_connection_idle_ms": 50 });
  grpc.addService(
    { Echo: ECHO },
    {
      Echo: (
        call: { getAuthContext(): { sslPeerCertificate?: { subjectaltname?: string } } },
        answer: (e: null, v: Buffer) => void,
      ) => answer(null, Buffer.from(call.getAuthContext().sslPeerCertificate?.subjectaltname ?? "")),
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync(
      "127.0.0.1:0",
      ServerCredentials.createSsl(
        Buffer.from(tls.caCertificatePem),
        [
          {
            cert_chain: Buffer.from(tls.listener.certificatePem),
            private_key: Buffer.from(tls.listener.privateKeyPem),
          },
        ],
        true,
      ),
      (error, bound) => (error ? reject(error) : resolve(bound)),
    ),
  );
  return { server: grpc, address: `127.0.0.1:${port}` };
}

function echo(client: Client): Promise<string> {
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      ECHO.path,
      ECHO.requestSerialize,
      ECHO.responseDeserialize,
      Buffer.from("x"),
      (error, value) => (error ? reject(error) : resolve(String(value))),
    ),
  );
}

/** Resolves when the channel has left READY (the listener closed its idle connection). */
function disconnected(client: Client): Promise<void> {
  const channel = client.getChannel();
  return new Promise((resolve) => {
    const watch = () => {
      const state = channel.getConnectivityState(false);
      if (state !== connectivityState.READY) return resolve();
      channel.watchConnectivityState(state, Number.POSITIVE_INFINITY, watch);
    };
    watch();
  });
}

/** One connection through the credentials' connector, as a grpc-js subchannel makes it, kept until the peer closes. */
async function connectOnce(credentials: ResumingTlsCredentials, port: number): Promise<void> {
  const tcp = connectTcp(port, "127.0.0.1");
  await once(tcp, "connect");
  const { socket, secure } = await credentials._createSecureConnector(undefined, {}).connect(tcp);
  expect(secure).toBe(true);
  socket.resume();
  await once(socket as Socket, "close");
}

describe("ResumingTlsCredentials", () => {
  it("resumes the last connection's session, the listener still seeing the machine's certificate", async () => {
    const listener = await startListener();
    const credentials = credentialsFor();
    await connectOnce(credentials, listener.port);
    await connectOnce(credentials, listener.port);
    await connectOnce(credentials, listener.port);
    expect(listener.handshakes.map((handshake) => handshake.reused)).toEqual([false, true, true]);
    for (const handshake of listener.handshakes) {
      expect(handshake.subjectAltName).toContain("spiffe://racksmith/machine/dpu-1");
    }
  });

  it("carries a grpc-js channel's calls, resuming after the listener closed the idle connection", async () => {
    const { server: grpc, address } = await startGrpcListener();
    const handshakes: boolean[] = [];
    const client = new Client(
      address,
      credentialsFor(tls.caCertificatePem, (resumed) => handshakes.push(resumed)),
    );
    try {
      expect(await echo(client)).toContain("spiffe://racksmith/machine/dpu-1");
      await disconnected(client);
      expect(await echo(client)).toContain("spiffe://racksmith/machine/dpu-1");
      expect(handshakes).toEqual([false, true]);
    } finally {
      client.close();
      grpc.forceShutdown();
    }
  });

  it("keeps sessions per credentials: a machine's channel never resumes another's", async () => {
    const listener = await startListener();
    await connectOnce(credentialsFor(), listener.port);
    await connectOnce(credentialsFor(), listener.port);
    expect(listener.handshakes.map((handshake) => handshake.reused)).toEqual([false, false]);
  });

  it("refuses a listener whose certificate its CA did not sign", async () => {
    const stranger = await agentTlsForTest("dpu-2");
    const listener = await startListener();
    const tcp = connectTcp(listener.port, "127.0.0.1");
    await once(tcp, "connect");
    await expect(
      credentialsFor(stranger.caCertificatePem)._createSecureConnector(undefined, {}).connect(tcp),
    ).rejects.toThrow();
    tcp.destroy();
  });
});
