import { type KeyObject, sign } from "node:crypto";
import {
  bitString,
  contextConstructed,
  contextPrimitive,
  encoded,
  expectTag,
  objectIdentifier,
  octetString,
  readChildren,
  readOnly,
  sequence,
  TAG,
  TRUE,
  tlv,
  toPem,
  unsignedInteger,
  x509Time,
} from "./der.js";

/** What varies between agents' certificates; the rest of the certificate is fixed. */
export interface AgentLeaf {
  /** Positive, big-endian. */
  serialNumber: Uint8Array;
  /** The CA certificate's subject, DER. */
  issuer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  commonName: string;
  /** The SAN URI naming the machine. */
  uri: string;
  /** DER, as the agent's request carried it. */
  subjectPublicKeyInfo: Uint8Array;
}

/** version [0] EXPLICIT v3 (2). */
const VERSION_3 = tlv(contextConstructed(0), tlv(TAG.INTEGER, Buffer.from([2])));
/** ecdsa-with-SHA256, without parameters: the CA's key is always P-256 (KEY_ALGORITHM). */
export const ECDSA_WITH_SHA256 = sequence(objectIdentifier("1.2.840.10045.4.3.2"));
const COMMON_NAME = objectIdentifier("2.5.4.3");
/** basicConstraints, critical, cA FALSE (the default, so an empty SEQUENCE). */
const BASIC_CONSTRAINTS = extension(objectIdentifier("2.5.29.19"), true, sequence());
/** keyUsage, critical: digitalSignature only (bit 0: one byte, 7 unused bits). */
const KEY_USAGE = extension(
  objectIdentifier("2.5.29.15"),
  true,
  tlv(TAG.BIT_STRING, Buffer.from([0x07, 0x80])),
);
/** extendedKeyUsage: id-kp-clientAuth. */
const CLIENT_AUTH = extension(
  objectIdentifier("2.5.29.37"),
  false,
  sequence(objectIdentifier("1.3.6.1.5.5.7.3.2")),
);
const SUBJECT_ALT_NAME = objectIdentifier("2.5.29.17");
/** What @peculiar/x509 (which issued these before) writes as a PrintableString; anything else is UTF8String. */
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** The TBSCertificate of an agent's client certificate. */
export function agentLeafTbs(leaf: AgentLeaf): Buffer {
  const name = Buffer.from(leaf.commonName, "utf8");
  const nameTag = PRINTABLE.test(leaf.commonName) ? TAG.PRINTABLE_STRING : TAG.UTF8_STRING;
  return sequence(
    VERSION_3,
    unsignedInteger(leaf.serialNumber),
    ECDSA_WITH_SHA256,
    leaf.issuer,
    sequence(x509Time(leaf.notBefore), x509Time(leaf.notAfter)),
    sequence(tlv(TAG.SET, sequence(COMMON_NAME, tlv(nameTag, name)))),
    leaf.subjectPublicKeyInfo,
    tlv(
      contextConstructed(3),
      sequence(
        BASIC_CONSTRAINTS,
        KEY_USAGE,
        CLIENT_AUTH,
        // uniformResourceIdentifier [6] IMPLICIT IA5String; latin1 keeps the low byte of each character,
        // as the encoder before did.
        extension(
          SUBJECT_ALT_NAME,
          false,
          sequence(tlv(contextPrimitive(6), Buffer.from(leaf.uri, "latin1"))),
        ),
      ),
    ),
  );
}

/** The certificate over `tbs`, signed by the CA's P-256 key (a DER ECDSA-Sig-Value), as PEM. */
export function signedCertificatePem(tbs: Uint8Array, caKey: KeyObject): string {
  return toPem("CERTIFICATE", sequence(tbs, ECDSA_WITH_SHA256, bitString(sign("sha256", tbs, caKey))));
}

/** A certificate's subject, DER, byte for byte: the issuer of what it signs (RFC 5280 name chaining). */
export function certificateSubject(certificate: Uint8Array): Uint8Array {
  const [tbs] = readChildren(certificate, readOnly(certificate, TAG.SEQUENCE));
  const fields = readChildren(certificate, expectTag(tbs, TAG.SEQUENCE));
  // The version is [0] EXPLICIT and optional (absent for v1): the subject is the 6th field, or the 5th.
  const subject = fields[0]?.tag === contextConstructed(0) ? fields[5] : fields[4];
  return encoded(certificate, expectTag(subject, TAG.SEQUENCE));
}

function extension(oid: Uint8Array, critical: boolean, value: Uint8Array): Buffer {
  return sequence(oid, ...(critical ? [TRUE] : []), octetString(value));
}
