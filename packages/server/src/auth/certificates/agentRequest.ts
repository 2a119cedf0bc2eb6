import { generateKeyPair, sign } from "node:crypto";
import { promisify } from "node:util";
import { ECDSA_WITH_SHA256 } from "./agentLeaf.js";
import { bitString, contextConstructed, objectIdentifier, sequence, TAG, tlv, toPem } from "./der.js";

/** An agent's new key (kept by the agent) and the PKCS#10 request for its machine certificate. */
export interface AgentCertificateRequest {
  privateKeyPem: string;
  csrPem: string;
}

const generateEcKeyPair = promisify(generateKeyPair);
const VERSION_1 = tlv(TAG.INTEGER, Buffer.from([0]));
const COMMON_NAME = objectIdentifier("2.5.4.3");
/** No attributes: `[0]` IMPLICIT SET OF, empty. */
const NO_ATTRIBUTES = tlv(contextConstructed(0));

/**
 * What an agent sends in DiscoverMachine (and RenewAgentCertificate): a fresh P-256 key and a CSR signed
 * with it. The service names the machine in the certificate; the CSR's own subject is only a label. Written
 * as DER with node:crypto: every boot of a (discovery-image) agent makes one.
 */
export async function createAgentCertificateRequest(
  label = "racksmith-agent",
): Promise<AgentCertificateRequest> {
  const { privateKey, publicKey } = await generateEcKeyPair("ec", { namedCurve: "P-256" });
  const name = Buffer.from(label.replace(/[^A-Za-z0-9._-]/g, "") || "racksmith-agent", "utf8");
  const info = sequence(
    VERSION_1,
    sequence(tlv(TAG.SET, sequence(COMMON_NAME, tlv(TAG.UTF8_STRING, name)))),
    publicKey.export({ type: "spki", format: "der" }),
    NO_ATTRIBUTES,
  );
  const request = sequence(info, ECDSA_WITH_SHA256, bitString(sign("sha256", info, privateKey)));
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    csrPem: toPem("CERTIFICATE REQUEST", request),
  };
}
