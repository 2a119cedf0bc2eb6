import { createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifiedRequestKey } from "./agentCsr.js";
import { createAgentCertificateRequest } from "./agentRequest.js";
import { x509 } from "./x509.js";

describe("createAgentCertificateRequest", () => {
  it.each([
    ["a machine label", "host-0001", "CN=host-0001"],
    ["a label with characters a name must not carry", "dpu 1/é", "CN=dpu1"],
    ["an empty label", "", "CN=racksmith-agent"],
  ])("writes a PKCS#10 request for %s, signed by the key it hands the agent", async (_, label, subject) => {
    const { csrPem, privateKeyPem } = await createAgentCertificateRequest(label);
    const request = new x509.Pkcs10CertificateRequest(csrPem);
    expect(request.subject).toBe(subject);
    expect(await request.verify()).toBe(true);
    const ownKey = createPublicKey(privateKeyPem).export({ type: "spki", format: "der" });
    expect(Buffer.from(verifiedRequestKey(csrPem))).toEqual(ownKey);
    expect(csrPem.split("\n").every((line) => line.length <= 64)).toBe(true);
  });

  it("makes a new key for every request", async () => {
    const [a, b] = await Promise.all([createAgentCertificateRequest(), createAgentCertificateRequest()]);
    expect(a.privateKeyPem).not.toBe(b.privateKeyPem);
  });
});
