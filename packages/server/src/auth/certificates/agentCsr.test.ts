import { generateKeyPairSync, type KeyObject, sign, webcrypto } from "node:crypto";
import { InvalidArgumentError } from "@racksmith/core";
import { beforeAll, describe, expect, it } from "vitest";
import { verifiedRequestKey } from "./agentCsr.js";
import { createAgentCertificateRequest } from "./agentRequest.js";
import {
  bitString,
  contextConstructed,
  encoded,
  objectIdentifier,
  readChildren,
  readOnly,
  sequence,
  TAG,
  tlv,
} from "./der.js";
import { KEY_ALGORITHM, x509 } from "./x509.js";

const NOT_A_REQUEST = "csr_pem: is not a PEM PKCS#10 certificate request";
const UNSUPPORTED = "csr_pem: its key or signature algorithm is not supported";
const BAD_SIGNATURE = "csr_pem: its signature does not verify";

const OID = {
  ecdsaSha1: "1.2.840.10045.4.1",
  ecdsaSha256: "1.2.840.10045.4.3.2",
  ecdsaSha384: "1.2.840.10045.4.3.3",
  ecdsaSha512: "1.2.840.10045.4.3.4",
  rsaSha256: "1.2.840.113549.1.1.11",
  rsaSha384: "1.2.840.113549.1.1.12",
  rsaSha512: "1.2.840.113549.1.1.13",
  ed25519: "1.3.101.112",
  unknown: "1.2.3.4.5",
};

interface Pair {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

interface Handmade {
  keys: Pair;
  signatureOid: string;
  /** The digest to sign with; null for Ed25519. */
  hash: string | null;
  version?: number;
  /** Whether the (empty) [0] attributes are written: optional, as the parser before took it. */
  attributes?: boolean;
  /** RSA's parameters are NULL, the others' absent. */
  nullParameters?: boolean;
}

/** A PKCS#10 request written field by field, for what no generator writes (unknown OIDs, mismatched keys). */
function handmadeDer(request: Handmade): Buffer {
  const info = sequence(
    tlv(TAG.INTEGER, Buffer.from([request.version ?? 0])),
    sequence(tlv(TAG.SET, sequence(objectIdentifier("2.5.4.3"), tlv(TAG.UTF8_STRING, Buffer.from("agent"))))),
    request.keys.publicKey.export({ type: "spki", format: "der" }),
    ...(request.attributes === false ? [] : [tlv(contextConstructed(0))]),
  );
  const parameters = request.nullParameters ? [Buffer.from([0x05, 0x00])] : [];
  const signature = sign(request.hash, info, request.keys.privateKey);
  return sequence(
    info,
    sequence(objectIdentifier(request.signatureOid), ...parameters),
    bitString(signature),
  );
}

function pem(der: Uint8Array, label = "CERTIFICATE REQUEST"): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`, ""].join("\n");
}

function derOf(csrPem: string): Buffer {
  return Buffer.from(csrPem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
}

/** The error verifiedRequestKey throws: its message when it is an InvalidArgumentError, else the error. */
function refusal(csrPem: string): unknown {
  try {
    verifiedRequestKey(csrPem);
    return "accepted";
  } catch (error) {
    return error instanceof InvalidArgumentError ? error.message : error;
  }
}

/** Whether @peculiar/x509, which checked requests before, verifies it. */
async function peculiarVerifies(csrPem: string): Promise<boolean> {
  return new x509.Pkcs10CertificateRequest(csrPem).verify();
}

const ec = (namedCurve: string) => generateKeyPairSync("ec", { namedCurve });
let p256: Pair;
let rsa: Pair;
let agentPem: string;

beforeAll(async () => {
  p256 = ec("prime256v1");
  rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  agentPem = (await createAgentCertificateRequest("host-1")).csrPem;
});

describe("verifiedRequestKey", () => {
  it("returns the public key of the agents' own request (P-256, @peculiar's generator)", () => {
    const key = new x509.Pkcs10CertificateRequest(agentPem).publicKey.rawData;
    expect(Buffer.from(verifiedRequestKey(agentPem))).toEqual(Buffer.from(key));
  });

  interface Accepted {
    name: string;
    keys: () => Pair;
    oid: string;
    hash: string | null;
    nul?: boolean;
    attrs?: boolean;
  }
  it.each<Accepted>([
    { name: "P-256, ecdsa-with-SHA256", keys: () => p256, oid: OID.ecdsaSha256, hash: "sha256" },
    { name: "P-256, ecdsa-with-SHA384", keys: () => p256, oid: OID.ecdsaSha384, hash: "sha384" },
    { name: "P-384, ecdsa-with-SHA384", keys: () => ec("secp384r1"), oid: OID.ecdsaSha384, hash: "sha384" },
    { name: "P-521, ecdsa-with-SHA512", keys: () => ec("secp521r1"), oid: OID.ecdsaSha512, hash: "sha512" },
    { name: "RSA, sha256WithRSAEncryption", keys: () => rsa, oid: OID.rsaSha256, hash: "sha256", nul: true },
    { name: "RSA, sha384WithRSAEncryption", keys: () => rsa, oid: OID.rsaSha384, hash: "sha384", nul: true },
    { name: "RSA, sha512WithRSAEncryption", keys: () => rsa, oid: OID.rsaSha512, hash: "sha512", nul: true },
    { name: "Ed25519", keys: () => generateKeyPairSync("ed25519"), oid: OID.ed25519, hash: null },
    {
      name: "P-256 without attributes",
      keys: () => p256,
      oid: OID.ecdsaSha256,
      hash: "sha256",
      attrs: false,
    },
  ])("accepts $name, as @peculiar/x509 did", async ({ keys, oid, hash, nul, attrs }) => {
    const pair = keys();
    const csrPem = pem(
      handmadeDer({ keys: pair, signatureOid: oid, hash, nullParameters: nul, attributes: attrs }),
    );
    expect(await peculiarVerifies(csrPem)).toBe(true);
    expect(Buffer.from(verifiedRequestKey(csrPem))).toEqual(
      pair.publicKey.export({ type: "spki", format: "der" }),
    );
  });

  it("accepts the older NEW CERTIFICATE REQUEST label, CRLF line ends and text around the block", () => {
    const der = derOf(agentPem);
    expect(refusal(`a note\r\n${pem(der, "NEW CERTIFICATE REQUEST").replace(/\n/g, "\r\n")}more`)).toBe(
      "accepted",
    );
  });

  const malformed: { name: string; csr: () => string }[] = [
    { name: "an empty string", csr: () => "" },
    { name: "another PEM type", csr: () => "-----BEGIN NOTHING-----" },
    { name: "a certificate's label", csr: () => pem(derOf(agentPem), "CERTIFICATE") },
    { name: "no PEM at all", csr: () => "x".repeat(9000) },
    { name: "the DER without PEM armour", csr: () => derOf(agentPem).toString("base64") },
    { name: "garbage base64", csr: () => pem(Buffer.from("not a request at all")) },
    { name: "characters outside base64", csr: () => agentPem.replace(/[A-Z]/, "*") },
    {
      name: "base64 with a missing character",
      // The body's first character: its length is no longer a multiple of four.
      csr: () => agentPem.replace(/REQUEST-----\n./, "REQUEST-----\n"),
    },
    {
      name: "mismatched BEGIN and END",
      csr: () => agentPem.replace("END CERTIFICATE", "END NEW CERTIFICATE"),
    },
    { name: "an empty body", csr: () => pem(Buffer.alloc(0)) },
    { name: "half the DER", csr: () => pem(derOf(agentPem).subarray(0, 60)) },
    { name: "a wrong outer tag (SET)", csr: () => pem(patch(derOf(agentPem), 0, 0x31)) },
    {
      name: "an outer length past the end",
      csr: () => pem(withOuterLength(derOf(agentPem), [0x82, 0x7f, 0xff])),
    },
    {
      name: "a huge outer length",
      csr: () => pem(withOuterLength(derOf(agentPem), [0x84, 0xff, 0xff, 0xff, 0xff])),
    },
    { name: "a five-byte length", csr: () => pem(withOuterLength(derOf(agentPem), [0x85, 1, 0, 0, 0, 0])) },
    { name: "an indefinite length", csr: () => pem(withOuterLength(derOf(agentPem), [0x80])) },
    { name: "a non-minimal length", csr: () => pem(nonMinimalOuterLength(derOf(agentPem))) },
    { name: "a trailing byte", csr: () => pem(Buffer.concat([derOf(agentPem), Buffer.from([0])])) },
    { name: "a trailing element", csr: () => pem(Buffer.concat([derOf(agentPem), Buffer.from([5, 0])])) },
    {
      name: "version 1",
      csr: () => pem(handmadeDer({ keys: p256, signatureOid: OID.ecdsaSha256, hash: "sha256", version: 1 })),
    },
    { name: "an empty SEQUENCE", csr: () => pem(sequence()) },
    { name: "a fourth top-level field", csr: () => pem(addedField(derOf(agentPem))) },
  ];
  it.each(malformed)("refuses $name as not a request", ({ csr }) => {
    expect(refusal(csr())).toBe(NOT_A_REQUEST);
  });

  it("refuses every truncation of the DER as not a request", () => {
    const der = derOf(agentPem);
    const refusals = new Set(
      Array.from({ length: der.length - 1 }, (_, length) => refusal(pem(der.subarray(0, length + 1)))),
    );
    expect([...refusals]).toEqual([NOT_A_REQUEST]);
  });

  it("answers any corrupted byte with one of its three messages, never another error", () => {
    const der = derOf(agentPem);
    const answers = new Set<unknown>();
    for (let offset = 0; offset < der.length; offset++) {
      for (const flip of [0x01, 0x80, 0xff])
        answers.add(refusal(pem(patch(der, offset, (der[offset] ?? 0) ^ flip))));
    }
    for (const answer of answers) expect([NOT_A_REQUEST, UNSUPPORTED, BAD_SIGNATURE]).toContain(answer);
    expect(answers).toContain(BAD_SIGNATURE);
  });

  const unsupported: { name: string; csr: () => string | Promise<string> }[] = [
    {
      name: "an unknown signature OID over a P-256 key",
      csr: () => pem(handmadeDer({ keys: p256, signatureOid: OID.unknown, hash: "sha256" })),
    },
    {
      name: "ecdsa-with-SHA1",
      csr: () => pem(handmadeDer({ keys: p256, signatureOid: OID.ecdsaSha1, hash: "sha1" })),
    },
    {
      name: "ECDSA named over an RSA key",
      csr: () => pem(handmadeDer({ keys: rsa, signatureOid: OID.ecdsaSha256, hash: "sha256" })),
    },
    {
      name: "RSA named over a P-256 key",
      csr: () => pem(handmadeDer({ keys: p256, signatureOid: OID.rsaSha256, hash: "sha256" })),
    },
    {
      name: "Ed25519 named over a P-256 key",
      csr: () => pem(handmadeDer({ keys: p256, signatureOid: OID.ed25519, hash: "sha256" })),
    },
    {
      name: "a secp256k1 key",
      csr: () => pem(handmadeDer({ keys: ec("secp256k1"), signatureOid: OID.ecdsaSha256, hash: "sha256" })),
    },
    { name: "an RSA-PSS request", csr: rsaPssRequest },
    { name: "a key info that is no key", csr: () => pem(withBrokenKey(derOf(agentPem))) },
  ];
  it.each(unsupported)("refuses $name as unsupported", async ({ csr }) => {
    expect(refusal(await csr())).toBe(UNSUPPORTED);
  });

  const forged: { name: string; csr: () => string }[] = [
    {
      name: "an altered signature",
      csr: () => {
        const der = derOf(agentPem);
        return pem(patch(der, der.length - 1, (der[der.length - 1] ?? 0) ^ 0x5a));
      },
    },
    { name: "an altered subject", csr: () => pem(alteredSubject(derOf(agentPem))) },
    {
      name: "another key's signature",
      csr: () => {
        const der = derOf(agentPem);
        return pem(withSignature(der, sign("sha256", requestInfo(der), ec("prime256v1").privateKey)));
      },
    },
    { name: "an empty signature", csr: () => pem(withSignature(derOf(agentPem), Buffer.alloc(0))) },
    {
      name: "a signature that is not DER",
      csr: () => pem(withSignature(derOf(agentPem), Buffer.alloc(64, 1))),
    },
  ];
  it.each(forged)("refuses $name as not verifying", ({ csr }) => {
    expect(refusal(csr())).toBe(BAD_SIGNATURE);
  });
});

async function rsaPssRequest(): Promise<string> {
  const algorithm = {
    name: "RSA-PSS",
    hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: "CN=pss",
    keys,
    signingAlgorithm: { ...algorithm, saltLength: 32 },
  });
  return request.toString("pem");
}

function patch(der: Buffer, offset: number, value: number): Buffer {
  const copy = Buffer.from(der);
  copy[offset] = value;
  return copy;
}

/** The request's outer SEQUENCE with its length bytes replaced (the agents' requests use 0x81 nn). */
function withOuterLength(der: Buffer, length: number[]): Buffer {
  expect(der[1]).toBe(0x81);
  return Buffer.concat([Buffer.from([0x30, ...length]), der.subarray(3)]);
}

function nonMinimalOuterLength(der: Buffer): Buffer {
  return withOuterLength(der, [0x82, 0x00, der[2] ?? 0]);
}

function addedField(der: Buffer): Buffer {
  const body = Buffer.concat([der.subarray(3), Buffer.from([5, 0])]);
  return Buffer.concat([Buffer.from([0x30, 0x81, body.length]), body]);
}

/** The agents' requests: 30 81 nn | info 30 nn | version 02 01 00 | subject 30 nn … */
function alteredSubject(der: Buffer): Buffer {
  const at = der.indexOf(Buffer.from("host-1"));
  expect(at).toBeGreaterThan(0);
  return patch(der, at, "H".charCodeAt(0));
}

/** The key's point in no point format (05…): well-formed DER no key decoder takes. */
function withBrokenKey(der: Buffer): Buffer {
  const point = der.indexOf(Buffer.from([0x03, 0x42, 0x00, 0x04]));
  expect(point).toBeGreaterThan(0);
  return patch(der, point + 3, 0x05);
}

function requestInfo(der: Buffer): Uint8Array {
  const [info] = readChildren(der, readOnly(der, TAG.SEQUENCE));
  if (!info) throw new Error("no request info");
  return encoded(der, info);
}

/** The request with its signature BIT STRING replaced. */
function withSignature(der: Buffer, signature: Buffer): Buffer {
  return sequence(requestInfo(der), sequence(objectIdentifier(OID.ecdsaSha256)), bitString(signature));
}

describe("the P-256 request the agents send", () => {
  it("is what these helpers expect", async () => {
    const der = derOf(agentPem);
    expect([der[0], der[1], der[3]]).toEqual([0x30, 0x81, 0x30]);
    expect(KEY_ALGORITHM.namedCurve).toBe("P-256");
    expect(await peculiarVerifies(agentPem)).toBe(true);
  });
});
