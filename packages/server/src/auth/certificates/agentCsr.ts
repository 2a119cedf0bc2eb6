import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { InvalidArgumentError } from "@racksmith/core";
import {
  checkWellFormed,
  content,
  contextConstructed,
  type DerElement,
  DerError,
  encoded,
  expectTag,
  objectIdentifier,
  readChildren,
  readOnly,
  TAG,
} from "./der.js";

const NOT_A_REQUEST = "csr_pem: is not a PEM PKCS#10 certificate request";
const UNSUPPORTED = "csr_pem: its key or signature algorithm is not supported";
const BAD_SIGNATURE = "csr_pem: its signature does not verify";

interface SignatureAlgorithm {
  /** The digest for crypto.verify; null for Ed25519, which hashes by itself. */
  hash: "sha256" | "sha384" | "sha512" | null;
  /** The key type (KeyObject.asymmetricKeyType) the algorithm signs with. */
  keyType: "ec" | "rsa" | "ed25519";
}

/** The signature algorithms a request may use, by the DER of their OID. */
const SIGNATURE_ALGORITHMS = new Map<string, SignatureAlgorithm>(
  (
    [
      ["1.2.840.10045.4.3.2", "sha256", "ec"], // ecdsa-with-SHA256
      ["1.2.840.10045.4.3.3", "sha384", "ec"], // ecdsa-with-SHA384
      ["1.2.840.10045.4.3.4", "sha512", "ec"], // ecdsa-with-SHA512
      ["1.2.840.113549.1.1.11", "sha256", "rsa"], // sha256WithRSAEncryption
      ["1.2.840.113549.1.1.12", "sha384", "rsa"], // sha384WithRSAEncryption
      ["1.2.840.113549.1.1.13", "sha512", "rsa"], // sha512WithRSAEncryption
      ["1.3.101.112", null, "ed25519"], // Ed25519
    ] as const
  ).map(([oid, hash, keyType]) => [objectIdentifier(oid).toString("hex"), { hash, keyType }]),
);

/** The curves WebCrypto verified requests on before; node would take more (brainpool, secp256k1). */
const EC_CURVES = new Set(["prime256v1", "secp384r1", "secp521r1"]);

/** What is checked and kept of a PKCS#10 request. */
interface CertificationRequest {
  /** CertificationRequestInfo as encoded: what the signature covers. */
  info: Uint8Array;
  subjectPublicKeyInfo: Uint8Array;
  /** The signature algorithm's OID, DER in hex. */
  signatureAlgorithm: string;
  signature: Uint8Array;
}

/**
 * The SubjectPublicKeyInfo (DER) of a PEM PKCS#10 request whose signature verifies under that key: proof the
 * agent holds it. Anything else is an InvalidArgumentError naming the field.
 */
export function verifiedRequestKey(csrPem: string): Uint8Array {
  let request: CertificationRequest;
  try {
    request = parseRequest(csrPem);
  } catch {
    throw new InvalidArgumentError(NOT_A_REQUEST);
  }
  const algorithm = SIGNATURE_ALGORITHMS.get(request.signatureAlgorithm);
  if (!algorithm) throw new InvalidArgumentError(UNSUPPORTED);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(request.subjectPublicKeyInfo), format: "der", type: "spki" });
  } catch {
    throw new InvalidArgumentError(UNSUPPORTED);
  }
  if (!signsWith(key, algorithm)) throw new InvalidArgumentError(UNSUPPORTED);
  let verified: boolean;
  try {
    verified = verify(algorithm.hash, request.info, key, request.signature);
  } catch {
    // OpenSSL throws on some malformed signatures (an RSA one longer than the modulus): not verified either.
    verified = false;
  }
  if (!verified) throw new InvalidArgumentError(BAD_SIGNATURE);
  return request.subjectPublicKeyInfo;
}

/** Whether `key` is of the algorithm's type: crypto.verify would otherwise check an RSA key under ECDSA. */
function signsWith(key: KeyObject, algorithm: SignatureAlgorithm): boolean {
  if (key.asymmetricKeyType !== algorithm.keyType) return false;
  return algorithm.keyType !== "ec" || EC_CURVES.has(key.asymmetricKeyDetails?.namedCurve ?? "");
}

/**
 * CertificationRequest ::= SEQUENCE { certificationRequestInfo SEQUENCE { version INTEGER (0), subject Name,
 * subjectPKInfo SEQUENCE { algorithm, BIT STRING }, attributes [0] IMPLICIT SET OF … }, signatureAlgorithm
 * AlgorithmIdentifier, signature BIT STRING }. Throws on anything malformed.
 */
function parseRequest(csrPem: string): CertificationRequest {
  const der = pemBody(csrPem);
  const [info, signatureAlgorithm, signature, ...extra] = readChildren(der, readOnly(der, TAG.SEQUENCE));
  if (extra.length > 0) throw new DerError("extra fields in the request");
  const infoElement = expectTag(info, TAG.SEQUENCE);
  const [version, subject, publicKeyInfo, attributes, ...more] = readChildren(der, infoElement);
  if (more.length > 0) throw new DerError("extra fields in the request info");
  const versionContent = content(der, expectTag(version, TAG.INTEGER));
  if (versionContent.length !== 1 || versionContent[0] !== 0) throw new DerError("not a v1 request");
  checkWellFormed(der, expectTag(subject, TAG.SEQUENCE));
  const publicKey = expectTag(publicKeyInfo, TAG.SEQUENCE);
  const [keyAlgorithm, keyBits, ...keyExtra] = readChildren(der, publicKey);
  if (keyExtra.length > 0) throw new DerError("extra fields in the public key info");
  algorithmOid(der, keyAlgorithm);
  expectTag(keyBits, TAG.BIT_STRING);
  // Attributes are optional (as the parser before took them); their content is not read, only well-formed.
  if (attributes) checkWellFormed(der, expectTag(attributes, contextConstructed(0)));
  const signatureBits = content(der, expectTag(signature, TAG.BIT_STRING));
  if (signatureBits[0] !== 0) throw new DerError("not a whole-byte signature");
  return {
    info: encoded(der, infoElement),
    subjectPublicKeyInfo: encoded(der, publicKey),
    signatureAlgorithm: Buffer.from(algorithmOid(der, signatureAlgorithm)).toString("hex"),
    signature: signatureBits.subarray(1),
  };
}

/** AlgorithmIdentifier ::= SEQUENCE { OID, parameters ANY OPTIONAL }: the OID's DER. */
function algorithmOid(der: Uint8Array, element: DerElement | undefined): Uint8Array {
  const [oid, parameters, ...extra] = readChildren(der, expectTag(element, TAG.SEQUENCE));
  if (extra.length > 0) throw new DerError("extra fields in an algorithm");
  if (parameters) checkWellFormed(der, parameters);
  return encoded(der, expectTag(oid, TAG.OBJECT_IDENTIFIER));
}

/** `-----BEGIN CERTIFICATE REQUEST-----` (or the older NEW CERTIFICATE REQUEST), base64, the matching END. */
const PEM =
  /-----BEGIN (NEW )?CERTIFICATE REQUEST-----([A-Za-z0-9+/=\s]*)-----END \1CERTIFICATE REQUEST-----/;
/** Strict base64: Buffer.from would skip what is not base64 rather than refuse it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function pemBody(text: string): Buffer {
  const body = PEM.exec(text)?.[2]?.replace(/\s+/g, "");
  if (!body || !BASE64.test(body)) throw new DerError("not PEM");
  return Buffer.from(body, "base64");
}
