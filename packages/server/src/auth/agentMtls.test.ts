import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, connectivityState, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRacksmithProto } from "../api/index.js";
import { type ServiceHarness, startServiceHarness } from "../testing/index.js";
import { AgentCa, type IssuedPair } from "./certificates/agentCa.js";
import { createAgentCertificateRequest } from "./certificates/agentRequest.js";

interface Answer<T> {
  code: number;
  details: string;
  value: T | undefined;
}

interface Granted {
  certificatePem: string;
  caCertificatePem: string;
  agentAddress: string;
  expiresAt: { seconds: string };
}

const HOST_AGENT = "racksmith.v1.HostAgent";
const definition = loadRacksmithProto(["racksmith/v1/agents.proto"]).definition;

/** A unary call of the agent API on a raw client, its status as data. */
function unary<T>(
  client: Client,
  method: string,
  request: object,
  metadata = new Metadata(),
): Promise<Answer<T>> {
  const service = definition[HOST_AGENT] as unknown as Record<
    string,
    { path: string; requestSerialize: (r: object) => Buffer; responseDeserialize: (b: Buffer) => T }
  >;
  const { path, requestSerialize, responseDeserialize } = service[method] ?? {};
  if (!path || !requestSerialize || !responseDeserialize) throw new Error(`no HostAgent/${method}`);
  return new Promise((resolve) =>
    client.makeUnaryRequest(
      path,
      requestSerialize,
      responseDeserialize,
      request,
      metadata,
      { deadline: Date.now() + 30_000 },
      (error: ServiceError | null, value?: T) =>
        resolve({ code: error ? error.code : status.OK, details: error?.details ?? "", value }),
    ),
  );
}

const inventory = (serial: string) => ({ serial, vendor: "test", model: "test", memoryBytes: "0" });

/*
 * Issue 17, acceptance 3 (the service's side): an agent gets its machine's certificate at DiscoverMachine and
 * calls the agent listener with it; a certificate for machine X calling about machine Y is refused, an
 * expired or unknown-CA certificate cannot connect, and a certificate renews over its own mTLS.
 */
describe("agents over mTLS", () => {
  let api: ServiceHarness;
  let dir: string;
  let ca: AgentCa;
  const made: Client[] = [];
  const mtlsClient = (pair: IssuedPair, caPem = ca.certificatePem) => {
    const client = new Client(
      `127.0.0.1:${api.service.agentGrpc.port}`,
      credentials.createSsl(
        Buffer.from(caPem),
        Buffer.from(pair.privateKeyPem),
        Buffer.from(pair.certificatePem),
      ),
      { "grpc.ssl_target_name_override": "localhost" },
    );
    made.push(client);
    return client;
  };
  const discover = async (serial: string) => {
    const request = await createAgentCertificateRequest("test-agent");
    const main = new Client(api.grpcAddress, credentials.createInsecure());
    made.push(main);
    const metadata = new Metadata();
    metadata.set("authorization", `Bearer ${api.adminToken}`);
    const answer = await unary<{ machineId: string; certificate: Granted | null }>(
      main,
      "DiscoverMachine",
      { inventory: inventory(serial), csrPem: request.csrPem },
      metadata,
    );
    expect(answer.code, answer.details).toBe(status.OK);
    const certificate = answer.value?.certificate;
    if (!certificate) throw new Error("DiscoverMachine signed no certificate");
    return {
      certificate,
      pair: { certificatePem: certificate.certificatePem, privateKeyPem: request.privateKeyPem },
    };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "racksmith-mtls-"));
    const files = { certFile: join(dir, "ca.pem"), keyFile: join(dir, "ca-key.pem") };
    ca = await AgentCa.open({ ...files, create: true });
    api = await startServiceHarness({
      // Idle agent connections close after a second here (60 s by default): see the last test.
      config: {
        auth: { agentCa: files, agentCertificateTtlMs: 3_600_000 },
        server: { agentIdleCloseMs: 1_000 },
      },
    });
    for (const [id, serial] of [
      ["host-1", "SN-1"],
      ["host-2", "SN-2"],
    ]) {
      await api.service.database.db
        .insertInto("machines")
        .values({
          id: id as string,
          kind: "host",
          serial: serial as string,
          bmc_address: `10.0.0.${id === "host-1" ? 1 : 2}`,
          bmc_mac: `02:00:00:00:00:0${id === "host-1" ? 1 : 2}`,
          host_id: null,
          host_facing_mac: null,
          vendor: "test",
          model: "test",
          created_at: new Date(),
        })
        .execute();
    }
  });
  afterAll(async () => {
    for (const client of made) client.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("signs the machine's certificate at DiscoverMachine; the agent listener knows the agent by it", async () => {
    const { certificate, pair } = await discover("SN-1");
    expect(certificate.caCertificatePem).toBe(ca.certificatePem);
    expect(certificate.agentAddress).toBe(`127.0.0.1:${api.service.agentGrpc.port}`);
    const client = mtlsClient(pair);
    const control = await unary<{ action: string }>(client, "AgentControl", { machineId: "host-1" });
    expect(control).toMatchObject({ code: status.OK, value: { action: "noop" } });
  });

  it("refuses a certificate of machine X calling about machine Y, and discovering Y", async () => {
    const { pair } = await discover("SN-1");
    const client = mtlsClient(pair);
    const about = await unary(client, "AgentControl", { machineId: "host-2" });
    expect(about.code).toBe(status.PERMISSION_DENIED);
    expect(about.details).toBe(
      "the agent of machine host-1 may not call racksmith.v1.HostAgent/AgentControl about machine host-2",
    );
    const other = await unary(client, "DiscoverMachine", { inventory: inventory("SN-2") });
    expect(other.code).toBe(status.PERMISSION_DENIED);
  });

  it("cannot connect with an expired certificate, nor with one of another CA", async () => {
    const now = Date.now();
    const expired = await ca.issueForTest("host-1", new Date(now - 7_200_000), new Date(now - 3_600_000));
    expect((await unary(mtlsClient(expired), "AgentControl", { machineId: "host-1" })).code).toBe(
      status.UNAVAILABLE,
    );
    const stranger = await (await AgentCa.open(undefined)).issueForTest(
      "host-1",
      new Date(now - 60_000),
      new Date(now + 3_600_000),
    );
    expect((await unary(mtlsClient(stranger), "AgentControl", { machineId: "host-1" })).code).toBe(
      status.UNAVAILABLE,
    );
    // Nor without any: the listener takes certificates only.
    const bare = new Client(
      `127.0.0.1:${api.service.agentGrpc.port}`,
      credentials.createSsl(Buffer.from(ca.certificatePem)),
      { "grpc.ssl_target_name_override": "localhost" },
    );
    made.push(bare);
    expect((await unary(bare, "AgentControl", { machineId: "host-1" })).code).toBe(status.UNAVAILABLE);
  });

  it("renews a certificate over its own mTLS, and only so", async () => {
    const { certificate, pair } = await discover("SN-1");
    const renewal = await createAgentCertificateRequest("test-agent");
    const renewed = await unary<Granted>(mtlsClient(pair), "RenewAgentCertificate", {
      csrPem: renewal.csrPem,
    });
    expect(renewed.code, renewed.details).toBe(status.OK);
    expect(renewed.value?.certificatePem).not.toBe(certificate.certificatePem);
    const next = mtlsClient({
      certificatePem: renewed.value?.certificatePem ?? "",
      privateKeyPem: renewal.privateKeyPem,
    });
    expect((await unary(next, "AgentControl", { machineId: "host-1" })).code).toBe(status.OK);

    const main = new Client(api.grpcAddress, credentials.createInsecure());
    made.push(main);
    const metadata = new Metadata();
    metadata.set("authorization", `Bearer ${api.adminToken}`);
    const byToken = await unary(main, "RenewAgentCertificate", { csrPem: renewal.csrPem }, metadata);
    expect(byToken.code).toBe(status.PERMISSION_DENIED);
  });

  it("refuses a CSR that is not one, naming the field", async () => {
    const { pair } = await discover("SN-1");
    const answer = await unary(mtlsClient(pair), "RenewAgentCertificate", {
      csrPem: "-----BEGIN NOTHING-----",
    });
    expect(answer).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: "csr_pem: is not a PEM PKCS#10 certificate request",
    });
    const huge = await unary(mtlsClient(pair), "RenewAgentCertificate", { csrPem: "x".repeat(9000) });
    expect(huge.code).toBe(status.INVALID_ARGUMENT);
    expect(huge.details).toContain("8192");
  });

  it("closes an agent's connection once it made no call for agentIdleCloseMs; the next call reconnects", async () => {
    const { pair } = await discover("SN-2");
    const client = mtlsClient(pair);
    expect((await unary(client, "AgentControl", { machineId: "host-2" })).code).toBe(status.OK);
    const channel = client.getChannel();
    expect(channel.getConnectivityState(false)).toBe(connectivityState.READY);
    // The listener's idle timer closes the connection (GOAWAY): the channel leaves READY by itself.
    await new Promise<void>((left) =>
      channel.watchConnectivityState(connectivityState.READY, Number.POSITIVE_INFINITY, () => left()),
    );
    expect(channel.getConnectivityState(false)).toBe(connectivityState.IDLE);
    expect((await unary(client, "AgentControl", { machineId: "host-2" })).code).toBe(status.OK);
  });
});
