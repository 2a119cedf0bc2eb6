import { X509Certificate as NodeCertificate, webcrypto } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidArgumentError } from "@racksmith/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCa, MACHINE_URI_PREFIX } from "./agentCa.js";
import { verifiedRequestKey } from "./agentCsr.js";
import { agentLeafTbs, certificateSubject } from "./agentLeaf.js";
import { createAgentCertificateRequest } from "./agentRequest.js";
import { encoded, readChildren, readOnly, TAG } from "./der.js";
import { generateKeys, KEY_ALGORITHM, keysFromPem, privateKeyPem, serialNumber, x509 } from "./x509.js";

/** The CA as the service keeps it: its certificate and its keys, read back from its files. */
interface OpenedCa {
  ca: AgentCa;
  certificate: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
}

/**
 * How agent certificates were issued before (@peculiar/x509 throughout): what the new path must match. A
 * copy of the old `issueAgentCertificate` and `sign(machineLeaf(…))`, with the serial number given.
 */
async function peculiarAgentCertificate(
  opened: OpenedCa,
  csrPem: string,
  machineId: string,
  ttlMs: number,
  now: Date,
  serial = serialNumber(),
): Promise<x509.X509Certificate> {
  const request = new x509.Pkcs10CertificateRequest(csrPem);
  expect(await request.verify()).toBe(true);
  return x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject: `CN=${oldCnSafe(machineId)}`,
    issuer: opened.certificate.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + ttlMs),
    publicKey: request.publicKey,
    signingKey: opened.keys.privateKey,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "url", value: `${MACHINE_URI_PREFIX}${machineId}` }]),
    ],
  });
}

function oldCnSafe(value: string): string {
  return value.replace(/[^A-Za-z0-9._:-]/g, "").slice(0, 64) || "machine";
}

/** A PEM certificate's framing: its header and footer, whether all but the last body line have 64 characters. */
function pemShape(pem: string): { header?: string; footer?: string; lines64: boolean; last: boolean } {
  const lines = pem.split("\n");
  const body = lines.slice(1, -1);
  return {
    header: lines[0],
    footer: lines.at(-1),
    lines64: body.slice(0, -1).every((line) => line.length === 64),
    last: (body.at(-1)?.length ?? 0) > 0 && (body.at(-1)?.length ?? 0) <= 64,
  };
}

function derOf(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
}

/** TBSCertificate, and its fields, of a certificate's DER. */
function tbsOf(der: Uint8Array): { tbs: Uint8Array; fields: Uint8Array[] } {
  const [tbs] = readChildren(der, readOnly(der, TAG.SEQUENCE));
  if (!tbs) throw new Error("no TBSCertificate");
  return { tbs: encoded(der, tbs), fields: readChildren(der, tbs).map((field) => encoded(der, field)) };
}

let directory: string;
let service: OpenedCa;
let operator: OpenedCa;
let p256Csr: string;
let p384Csr: string;

async function openCa(files: { certFile: string; keyFile: string; create: boolean }): Promise<OpenedCa> {
  const ca = await AgentCa.open(files);
  return {
    ca,
    certificate: new x509.X509Certificate(await readFile(files.certFile, "utf8")),
    keys: await keysFromPem(await readFile(files.keyFile, "utf8")),
  };
}

/** An operator's CA, its name in several RDNs and string types, to see the issuer copied byte for byte. */
async function operatorCaFiles(): Promise<{ certFile: string; keyFile: string; create: false }> {
  const keys = await generateKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [
      { C: ["DE"] },
      { O: ["Example Racks_GmbH"] },
      { OU: ["Fleet"] },
      { CN: ["Ops agent CA"] },
      { E: ["ops@example.test"] },
    ],
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  const files = { certFile: join(directory, "ops-ca.pem"), keyFile: join(directory, "ops-ca-key.pem") };
  await writeFile(files.certFile, certificate.toString("pem"));
  await writeFile(files.keyFile, privateKeyPem(keys.privateKey));
  return { ...files, create: false };
}

async function p384Request(): Promise<string> {
  const algorithm = { name: "ECDSA", namedCurve: "P-384", hash: "SHA-384" };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: "CN=p384",
    keys,
    signingAlgorithm: algorithm,
  });
  return request.toString("pem");
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "agent-ca-"));
  service = await openCa({
    certFile: join(directory, "agent-ca.pem"),
    keyFile: join(directory, "agent-ca-key.pem"),
    create: true,
  });
  operator = await openCa(await operatorCaFiles());
  p256Csr = (await createAgentCertificateRequest("host-1")).csrPem;
  p384Csr = await p384Request();
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const cases = [
  { name: "a plain id", machineId: "m-0042", now: "2030-01-02T03:04:05.678Z", ttlMs: 3_600_000 },
  {
    name: "an id with : (a PrintableString CN)",
    machineId: "node:7.b-2",
    now: "2030-01-02T03:04:05Z",
    ttlMs: 1,
  },
  {
    name: "an id with _ (a UTF8String CN)",
    machineId: "rack_07.slot:3",
    now: "2030-01-02T03:04:05Z",
    ttlMs: 1,
  },
  { name: "an empty id", machineId: "", now: "2030-01-02T03:04:05Z", ttlMs: 86_400_000 },
  { name: "a long id", machineId: "x".repeat(80), now: "2030-01-02T03:04:05Z", ttlMs: 86_400_000 },
  { name: "an id to clean", machineId: "rack 7/slot#3,ü€", now: "2030-01-02T03:04:05Z", ttlMs: 60_000 },
  { name: "a life across 2050", machineId: "m-1", now: "2049-12-31T23:30:00.250Z", ttlMs: 3_600_000 },
  { name: "a start on 2050", machineId: "m-1", now: "2050-01-01T00:01:00.000Z", ttlMs: 3_600_000 },
];

describe("AgentCa.issueAgentCertificate", () => {
  it.each(cases)(
    "writes the TBSCertificate @peculiar/x509 wrote for $name, byte for byte",
    async ({ machineId, now, ttlMs }) => {
      for (const [opened, csrPem] of [
        [service, p256Csr],
        [operator, p256Csr],
        [service, p384Csr],
      ] as const) {
        const serial = serialNumber();
        const before = await peculiarAgentCertificate(
          opened,
          csrPem,
          machineId,
          ttlMs,
          new Date(now),
          serial,
        );
        const tbs = agentLeafTbs({
          serialNumber: Buffer.from(serial, "hex"),
          issuer: certificateSubject(new Uint8Array(opened.certificate.rawData)),
          notBefore: new Date(new Date(now).getTime() - 60_000),
          notAfter: new Date(new Date(now).getTime() + ttlMs),
          commonName: oldCnSafe(machineId),
          uri: `${MACHINE_URI_PREFIX}${machineId}`,
          subjectPublicKeyInfo: verifiedRequestKey(csrPem),
        });
        expect(tbs.toString("hex")).toBe(
          Buffer.from(tbsOf(new Uint8Array(before.rawData)).tbs).toString("hex"),
        );
      }
    },
  );

  it.each(cases)(
    "issues for $name what @peculiar/x509 issued, field for field",
    async ({ machineId, now, ttlMs }) => {
      for (const opened of [service, operator]) {
        const at = new Date(now);
        const pem = await opened.ca.issueAgentCertificate(p256Csr, machineId, ttlMs, at);
        const before = await peculiarAgentCertificate(opened, p256Csr, machineId, ttlMs, at);
        const issued = new x509.X509Certificate(pem);
        expect(issued.subject).toBe(before.subject);
        expect(issued.issuer).toBe(before.issuer);
        expect(issued.issuer).toBe(opened.certificate.subject);
        expect(issued.notBefore).toEqual(before.notBefore);
        expect(issued.notAfter).toEqual(before.notAfter);
        expect(issued.signatureAlgorithm).toEqual(before.signatureAlgorithm);
        expect(Buffer.from(issued.publicKey.rawData)).toEqual(Buffer.from(before.publicKey.rawData));
        const extensions = (certificate: x509.X509Certificate) =>
          certificate.extensions.map((e) => ({
            type: e.type,
            critical: e.critical,
            value: Buffer.from(e.value),
          }));
        expect(extensions(issued)).toEqual(extensions(before));
        expect(issued.serialNumber).not.toBe(before.serialNumber);
        // The certificate without its serial number and signature: the same as before.
        const [, newSerial, ...newRest] = tbsOf(new Uint8Array(issued.rawData)).fields;
        const [, oldSerial, ...oldRest] = tbsOf(new Uint8Array(before.rawData)).fields;
        expect(newRest).toEqual(oldRest);
        expect(newSerial?.length).toBeLessThanOrEqual(18);
        expect(oldSerial?.length).toBeLessThanOrEqual(18);
        expect(await issued.verify({ publicKey: opened.certificate, signatureOnly: true })).toBe(true);
        // PEM as before: 64-character lines, no newline at the end.
        expect(pemShape(pem)).toEqual(pemShape(before.toString("pem")));
      }
    },
  );

  it("is read by node (OpenSSL) as the machine's client certificate, issued by the CA", async () => {
    const machineId = "m-7f3a";
    const now = new Date("2031-05-06T07:08:09Z");
    const pem = await service.ca.issueAgentCertificate(p256Csr, machineId, 3_600_000, now);
    const issued = new NodeCertificate(pem);
    const ca = new NodeCertificate(service.ca.certificatePem);
    expect(issued.subject).toBe(`CN=${machineId}`);
    expect(issued.issuer).toBe("CN=Racksmith agent CA");
    expect(issued.subjectAltName).toBe(`URI:${MACHINE_URI_PREFIX}${machineId}`);
    expect(issued.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(issued.ca).toBe(false);
    expect(issued.checkIssued(ca)).toBe(true);
    expect(issued.verify(ca.publicKey)).toBe(true);
    expect(issued.publicKey.export({ type: "spki", format: "der" })).toEqual(
      Buffer.from(verifiedRequestKey(p256Csr)),
    );
    // Valid from a minute back (clock skew) for the time asked.
    expect(new Date(issued.validFrom).toISOString()).toBe("2031-05-06T07:07:09.000Z");
    expect(new Date(issued.validTo).toISOString()).toBe("2031-05-06T08:08:09.000Z");
    expect(Buffer.from(issued.serialNumber, "hex")[0]).toBeLessThan(0x80);
    const again = new NodeCertificate(await service.ca.issueAgentCertificate(p256Csr, machineId, 3_600_000));
    expect(again.serialNumber).not.toBe(issued.serialNumber);
  });

  it("is issued by an operator's CA under its own name, byte for byte", async () => {
    const issued = await operator.ca.issueAgentCertificate(p256Csr, "m-1", 3_600_000);
    const [, , , issuer] = tbsOf(derOf(issued)).fields;
    const [, , , , , subject] = tbsOf(new Uint8Array(operator.certificate.rawData)).fields;
    expect(Buffer.from(issuer ?? [])).toEqual(Buffer.from(subject ?? []));
    expect(new NodeCertificate(issued).checkIssued(new NodeCertificate(operator.ca.certificatePem))).toBe(
      true,
    );
  });

  it.each([
    { now: "2049-12-31T23:30:00Z", notBefore: TAG.UTC_TIME, notAfter: TAG.GENERALIZED_TIME },
    { now: "2049-12-31T22:00:00Z", notBefore: TAG.UTC_TIME, notAfter: TAG.UTC_TIME },
    { now: "2050-01-01T00:00:30Z", notBefore: TAG.UTC_TIME, notAfter: TAG.GENERALIZED_TIME },
    { now: "2050-01-01T00:01:00Z", notBefore: TAG.GENERALIZED_TIME, notAfter: TAG.GENERALIZED_TIME },
  ])("encodes the validity from $now as RFC 5280 asks", async ({ now, notBefore, notAfter }) => {
    const pem = await service.ca.issueAgentCertificate(p256Csr, "m-1", 3_600_000, new Date(now));
    const [, , , , validity = new Uint8Array()] = tbsOf(derOf(pem)).fields;
    const times = readChildren(validity, readOnly(validity, TAG.SEQUENCE));
    expect(times.map((time) => time.tag)).toEqual([notBefore, notAfter]);
    const parsed = new x509.X509Certificate(pem);
    expect(parsed.notBefore).toEqual(new Date(Date.parse(now) - 60_000));
    expect(parsed.notAfter).toEqual(new Date(Date.parse(now) + 3_600_000));
  });

  it.each([
    { csr: "-----BEGIN NOTHING-----", message: "csr_pem: is not a PEM PKCS#10 certificate request" },
    { csr: "x".repeat(9000), message: "csr_pem: is not a PEM PKCS#10 certificate request" },
  ])("rejects a CSR that is not one ($message)", async ({ csr, message }) => {
    const issuing = service.ca.issueAgentCertificate(csr, "m-1", 3_600_000);
    await expect(issuing).rejects.toThrow(InvalidArgumentError);
    await expect(issuing).rejects.toThrow(message);
  });
});
