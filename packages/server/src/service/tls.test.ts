import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCa, type IssuedPair } from "../auth/certificates/agentCa.js";
import { type ServiceHarness, startServiceHarness } from "../testing/index.js";

let dir: string;
let ca: AgentCa;
let server: IssuedPair;
let client: IssuedPair;
const files = {
  cert: "",
  key: "",
  ca: "",
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "racksmith-tls-"));
  ca = await AgentCa.open(undefined);
  server = await ca.issueServerCertificate(["127.0.0.1", "localhost"], 3_600_000);
  client = await ca.issueForTest(
    "operator-laptop",
    new Date(Date.now() - 60_000),
    new Date(Date.now() + 3_600_000),
  );
  files.cert = join(dir, "server.pem");
  files.key = join(dir, "server-key.pem");
  files.ca = join(dir, "ca.pem");
  await writeFile(files.cert, server.certificatePem);
  await writeFile(files.key, server.privateKeyPem, { mode: 0o600 });
  await writeFile(files.ca, ca.certificatePem);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** GET over HTTPS trusting the test CA, presenting `identity` when given; the status, or the error's code. */
async function httpsStatus(port: number, path: string, identity?: IssuedPair): Promise<number | string> {
  const dispatcher = new Agent({
    connect: {
      ca: ca.certificatePem,
      ...(identity ? { cert: identity.certificatePem, key: identity.privateKeyPem } : {}),
    },
  });
  try {
    return (await fetch(`https://127.0.0.1:${port}${path}`, { dispatcher })).status;
  } catch (error) {
    return ((error as { cause?: { code?: string } }).cause?.code ?? "failed") as string;
  } finally {
    await dispatcher.close();
  }
}

function grpcVersion(address: string): Promise<number> {
  const grpc = new Client(address, credentials.createSsl(Buffer.from(ca.certificatePem)), {
    "grpc.ssl_target_name_override": "localhost",
  });
  return new Promise<number>((resolve) =>
    grpc.makeUnaryRequest(
      "/racksmith.v1.Racksmith/Version",
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes,
      {},
      new Metadata(),
      { deadline: Date.now() + 30_000 },
      (error: ServiceError | null) => {
        grpc.close();
        resolve(error ? error.code : status.OK);
      },
    ),
  );
}

describe("server.tls", () => {
  let api: ServiceHarness;
  beforeAll(async () => {
    api = await startServiceHarness({
      config: { server: { tls: { certFile: files.cert, keyFile: files.key } } },
    });
  });
  afterAll(() => api?.close());

  it("serves REST over HTTPS and gRPC over TLS, and says so when it listens", async () => {
    expect(await httpsStatus(api.service.http.port, "/healthz")).toBe(200);
    expect(await httpsStatus(api.service.http.port, "/api/v1/machines")).toBe(401);
    expect(await grpcVersion(api.grpcAddress)).toBe(status.OK);
  });
});

describe("server.tls with clientCaFile", () => {
  let api: ServiceHarness;
  beforeAll(async () => {
    api = await startServiceHarness({
      config: { server: { tls: { certFile: files.cert, keyFile: files.key, clientCaFile: files.ca } } },
    });
  });
  afterAll(() => api?.close());

  it("takes only clients presenting a certificate of that CA", async () => {
    expect(await httpsStatus(api.service.http.port, "/healthz", client)).toBe(200);
    expect(typeof (await httpsStatus(api.service.http.port, "/healthz"))).toBe("string");
  });
});

describe("server.tls that cannot be read", () => {
  it("refuses to start, naming the key and the file", async () => {
    await expect(
      startServiceHarness({
        config: { server: { tls: { certFile: join(dir, "absent.pem"), keyFile: files.key } } },
      }),
    ).rejects.toThrow(`server.tls.certFile: cannot read ${join(dir, "absent.pem")} (ENOENT)`);
  });
});
