import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { loadRacksmithProto } from "../api/index.js";
import { AgentCa, type IssuedPair } from "../auth/certificates/agentCa.js";

/** A machine certificate and its key, PEM. */
export type MachineCertificate = IssuedPair;

/** What a call on the agent listener answered: its status, and the response when it succeeded. */
export interface AgentListenerAnswer<T> {
  code: number;
  codeName: string;
  details: string;
  value: T | undefined;
}

/**
 * A certificate for `machineId` from the agents' CA in these files (a service's data directory:
 * `auth/agent-ca.pem`, `auth/agent-ca-key.pem`), valid from `notBefore` to `notAfter` (default: now, an hour):
 * what tests of the agent listener present, an expired one included.
 */
export async function machineCertificate(
  ca: { certFile: string; keyFile: string },
  machineId: string,
  validity: { notBefore: Date; notAfter: Date } = {
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3_600_000),
  },
): Promise<MachineCertificate> {
  const opened = await AgentCa.open({ ...ca, create: false });
  return opened.issueForTest(machineId, validity.notBefore, validity.notAfter);
}

/** A well-formed certificate for `machineId` from a CA no service trusts. */
export async function untrustedMachineCertificate(machineId: string): Promise<MachineCertificate> {
  const stranger = await AgentCa.open(undefined);
  return stranger.issueForTest(machineId, new Date(Date.now() - 60_000), new Date(Date.now() + 3_600_000));
}

/** A CA of its own with a listener certificate for `localhost` and a machine certificate, all PEM. */
export interface AgentTlsForTest {
  caCertificatePem: string;
  listener: MachineCertificate;
  machine: MachineCertificate;
}

/**
 * A fresh agents' CA in memory, the certificate of an agent listener reached as `localhost` and one of
 * `machineId`'s agent: what a test of an agent's TLS client needs, without a service.
 */
export async function agentTlsForTest(machineId: string): Promise<AgentTlsForTest> {
  const ca = await AgentCa.open(undefined);
  return {
    caCertificatePem: ca.certificatePem,
    listener: await ca.issueServerCertificate(["localhost"], 3_600_000),
    machine: await ca.issueForTest(
      machineId,
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 3_600_000),
    ),
  };
}

const definition = loadRacksmithProto(["racksmith/v1/agents.proto"]).definition;

/**
 * One unary call of the agent API (`racksmith.v1.HostAgent/AgentControl`, …) on the agent listener at
 * `address`, presenting `certificate` and trusting `caCertificatePem`; the status is data, never thrown.
 */
export async function callAgentListener<T = unknown>(
  address: string,
  caCertificatePem: string,
  certificate: MachineCertificate,
  method: string,
  request: object,
): Promise<AgentListenerAnswer<T>> {
  const [serviceName, methodName] = method.split("/");
  const service = definition[serviceName ?? ""] as unknown as
    | Record<
        string,
        { path: string; requestSerialize: (r: object) => Buffer; responseDeserialize: (b: Buffer) => T }
      >
    | undefined;
  const found = service?.[methodName ?? ""];
  if (!found) throw new Error(`the agent API has no ${method}`);
  const client = new Client(
    address,
    credentials.createSsl(
      Buffer.from(caCertificatePem),
      Buffer.from(certificate.privateKeyPem),
      Buffer.from(certificate.certificatePem),
    ),
    // TLS names no IP address; the agent listener's certificate always carries `localhost`.
    { "grpc.ssl_target_name_override": "localhost" },
  );
  try {
    return await new Promise((resolve) =>
      client.makeUnaryRequest(
        found.path,
        found.requestSerialize,
        found.responseDeserialize,
        request,
        new Metadata(),
        { deadline: Date.now() + 30_000 },
        (error: ServiceError | null, value?: T) => {
          const code = error ? error.code : status.OK;
          resolve({ code, codeName: status[code] ?? String(code), details: error?.details ?? "", value });
        },
      ),
    );
  } finally {
    client.close();
  }
}
