import { generateKeys, KEY_ALGORITHM, privateKeyPem, x509 } from "./x509.js";

/** An agent's new key (kept by the agent) and the PKCS#10 request for its machine certificate. */
export interface AgentCertificateRequest {
  privateKeyPem: string;
  csrPem: string;
}

/**
 * What an agent sends in DiscoverMachine (and RenewAgentCertificate): a fresh P-256 key and a CSR signed
 * with it. The service names the machine in the certificate; the CSR's own subject is only a label.
 */
export async function createAgentCertificateRequest(
  label = "racksmith-agent",
): Promise<AgentCertificateRequest> {
  const keys = await generateKeys();
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${label.replace(/[^A-Za-z0-9._-]/g, "") || "racksmith-agent"}`,
    keys,
    signingAlgorithm: KEY_ALGORITHM,
  });
  return { privateKeyPem: privateKeyPem(keys.privateKey), csrPem: request.toString("pem") };
}
