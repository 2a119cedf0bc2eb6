import { hostname } from "node:os";
import { ServerCredentials } from "@grpc/grpc-js";
import type { AgentCa } from "./agentCa.js";

/** The listener's certificate is made at each start: a year outlives any run. */
const LISTENER_CERTIFICATE_TTL_MS = 365 * 86_400_000;

/**
 * TLS for the agent listener: a certificate from the agents' CA for the names agents reach it by, and a
 * client certificate required and checked against that CA (unknown CA, expired: refused in the handshake).
 */
export async function agentListenerCredentials(ca: AgentCa, host: string): Promise<ServerCredentials> {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  const names = [...new Set([...(wildcard ? [] : [host]), "127.0.0.1", "::1", "localhost", hostname()])];
  const pair = await ca.issueServerCertificate(names, LISTENER_CERTIFICATE_TTL_MS);
  return ServerCredentials.createSsl(
    Buffer.from(ca.certificatePem),
    [{ cert_chain: Buffer.from(pair.certificatePem), private_key: Buffer.from(pair.privateKeyPem) }],
    true,
  );
}
