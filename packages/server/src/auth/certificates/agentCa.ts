import { KeyObject, type webcrypto } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ConfigError } from "../../config/index.js";
import { readOrCreatePrivateFile } from "../privateFile.js";
import { verifiedRequestKey } from "./agentCsr.js";
import { agentLeafTbs, certificateSubject, signedCertificatePem } from "./agentLeaf.js";
import { generateKeys, KEY_ALGORITHM, keysFromPem, privateKeyPem, serialNumber, x509 } from "./x509.js";

/** The URI an agent certificate names its machine by (its SAN), SPIFFE-style. */
export const MACHINE_URI_PREFIX = "spiffe://racksmith/machine/";
/** How long the CA itself is valid. */
const CA_LIFETIME_MS = 10 * 365 * 86_400_000;
/** A certificate is valid from a minute back: clocks of agents and service differ a little. */
const CLOCK_SKEW_MS = 60_000;

/** A certificate and its private key, as PEM. */
export interface IssuedPair {
  certificatePem: string;
  privateKeyPem: string;
}

/** Where the CA lives: files of the operator's, or created in the data directory; none in memory. */
export interface AgentCaFiles {
  certFile: string;
  keyFile: string;
  /** Create them when missing (the service's own CA); false for an operator's, which must exist. */
  create: boolean;
}

/**
 * The service's small certificate authority for agents: it signs each machine's client certificate (from
 * the agent's CSR, so the agent's key never leaves it) and the agent listener's server certificate.
 */
export class AgentCa {
  /** The CA's key for node:crypto, which signs agents' certificates without WebCrypto's round trips. */
  private readonly signingKey: KeyObject;
  /** The CA's subject as its certificate encodes it: the issuer of every agent certificate. */
  private readonly issuer: Uint8Array;

  private constructor(
    private readonly certificate: x509.X509Certificate,
    private readonly keys: webcrypto.CryptoKeyPair,
  ) {
    this.signingKey = KeyObject.from(keys.privateKey);
    this.issuer = certificateSubject(new Uint8Array(certificate.rawData));
  }

  /** The CA's certificate (PEM): what agents trust for the service, and the listener for agents. */
  get certificatePem(): string {
    return this.certificate.toString("pem");
  }

  static async open(files: AgentCaFiles | undefined): Promise<AgentCa> {
    if (!files) return AgentCa.selfSigned(await generateKeys());
    try {
      if (!files.create) {
        const [certificatePem, keyPem] = await Promise.all([
          readFile(files.certFile, "utf8"),
          readFile(files.keyFile, "utf8"),
        ]);
        return new AgentCa(new x509.X509Certificate(certificatePem), await keysFromPem(keyPem));
      }
      // The service's own: the key first, then the certificate over it (whichever replica writes it, it
      // certifies the one key every replica read).
      const keyPem = await readOrCreatePrivateFile(files.keyFile, async () =>
        privateKeyPem((await generateKeys()).privateKey),
      );
      const keys = await keysFromPem(keyPem.toString("utf8"));
      const certificatePem = await readOrCreatePrivateFile(
        files.certFile,
        async () => (await AgentCa.selfSigned(keys)).certificatePem,
      );
      return new AgentCa(new x509.X509Certificate(certificatePem.toString("utf8")), keys);
    } catch (error) {
      throw caFileError(files, error);
    }
  }

  private static async selfSigned(keys: webcrypto.CryptoKeyPair, now = new Date()): Promise<AgentCa> {
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serialNumber(),
      name: "CN=Racksmith agent CA",
      notBefore: new Date(now.getTime() - CLOCK_SKEW_MS),
      notAfter: new Date(now.getTime() + CA_LIFETIME_MS),
      keys,
      signingAlgorithm: KEY_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new AgentCa(certificate, keys);
  }

  /**
   * A client certificate for `machineId` over the agent's CSR (its signature checked: the agent holds the
   * key), valid for `ttlMs`. The machine is named by a SAN URI and the CN; nothing of the CSR's own names
   * is kept.
   */
  async issueAgentCertificate(
    csrPem: string,
    machineId: string,
    ttlMs: number,
    now = new Date(),
  ): Promise<string> {
    return this.machineCertificate(
      machineId,
      verifiedRequestKey(csrPem),
      new Date(now.getTime() - CLOCK_SKEW_MS),
      new Date(now.getTime() + ttlMs),
    );
  }

  /** The agent listener's certificate, for the names and addresses agents reach it by. */
  async issueServerCertificate(
    names: readonly string[],
    ttlMs: number,
    now = new Date(),
  ): Promise<IssuedPair> {
    const keys = await generateKeys();
    const altNames = names.map((name) =>
      /^[0-9.]+$|:/.test(name) ? { type: "ip" as const, value: name } : { type: "dns" as const, value: name },
    );
    const certificate = await this.sign({
      subject: "CN=Racksmith agent API",
      usage: x509.ExtendedKeyUsage.serverAuth,
      altNames,
      publicKey: keys.publicKey,
      notBefore: new Date(now.getTime() - CLOCK_SKEW_MS),
      notAfter: new Date(now.getTime() + ttlMs),
    });
    return { certificatePem: certificate.toString("pem"), privateKeyPem: privateKeyPem(keys.privateKey) };
  }

  /** A machine certificate signed by this CA, for tests: any validity (an expired one too). */
  async issueForTest(machineId: string, notBefore: Date, notAfter: Date): Promise<IssuedPair> {
    const keys = await generateKeys();
    const publicKey = KeyObject.from(keys.publicKey).export({ type: "spki", format: "der" });
    return {
      certificatePem: this.machineCertificate(machineId, publicKey, notBefore, notAfter),
      privateKeyPem: privateKeyPem(keys.privateKey),
    };
  }

  /**
   * A machine's client certificate over its public key: plain DER and node:crypto, not @peculiar (every agent
   * boot comes here); the machine is named by the CN and a SAN URI.
   */
  private machineCertificate(
    machineId: string,
    subjectPublicKeyInfo: Uint8Array,
    notBefore: Date,
    notAfter: Date,
  ): string {
    const tbs = agentLeafTbs({
      serialNumber: Buffer.from(serialNumber(), "hex"),
      issuer: this.issuer,
      notBefore,
      notAfter,
      commonName: cnSafe(machineId),
      uri: `${MACHINE_URI_PREFIX}${machineId}`,
      subjectPublicKeyInfo,
    });
    return signedCertificatePem(tbs, this.signingKey);
  }

  /** A leaf certificate: not a CA, signing only, for one use, with its alternative names. */
  private sign(leaf: LeafCertificate): Promise<x509.X509Certificate> {
    return x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: leaf.subject,
      issuer: this.certificate.subject,
      notBefore: leaf.notBefore,
      notAfter: leaf.notAfter,
      publicKey: leaf.publicKey,
      signingKey: this.keys.privateKey,
      signingAlgorithm: KEY_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([leaf.usage]),
        new x509.SubjectAlternativeNameExtension(leaf.altNames),
      ],
    });
  }
}

interface LeafCertificate {
  subject: string;
  usage: x509.ExtendedKeyUsage;
  altNames: x509.JsonGeneralNames;
  publicKey: x509.PublicKeyType;
  notBefore: Date;
  notAfter: Date;
}

/** Machine ids are plain; anything that would need escaping in a distinguished name is dropped. */
function cnSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9._:-]/g, "").slice(0, 64) || "machine";
}

function caFileError(files: AgentCaFiles, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(files.certFile, [
    `auth.agentCa: cannot use ${files.certFile} and ${files.keyFile} as the agents' CA (${reason})`,
  ]);
}
