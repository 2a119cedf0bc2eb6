import { describe, expect, it } from "vitest";
import { agentOfCertificate, machineOfCertificate } from "./peerMachine.js";

const NOW = Date.parse("2026-11-30T10:00:00Z");
const SAN = "URI:spiffe://racksmith/machine/host-1";

describe("machineOfCertificate", () => {
  it.each([
    { san: SAN, machine: "host-1" },
    { san: `DNS:host-1.example, ${SAN}`, machine: "host-1" },
    { san: "DNS:host-1.example", machine: undefined },
    { san: `${SAN}, URI:spiffe://racksmith/machine/host-2`, machine: undefined },
    { san: "URI:spiffe://racksmith/machine/", machine: undefined },
    { san: undefined, machine: undefined },
  ])("$san names $machine", ({ san, machine }) => {
    expect(machineOfCertificate(san)).toBe(machine);
  });
});

describe("agentOfCertificate", () => {
  it.each([
    { validTo: "Nov 30 11:00:00 2026 GMT", admitted: true },
    // A resumed TLS session keeps the certificate of its first handshake: its expiry is checked at each call.
    { validTo: "Nov 30 09:59:59 2026 GMT", admitted: false },
    { validTo: "Nov 30 10:00:00 2026 GMT", admitted: false },
    { validTo: undefined, admitted: true },
  ])("a certificate valid to $validTo is admitted: $admitted", ({ validTo, admitted }) => {
    const admit = () => agentOfCertificate({ subjectAltName: SAN, validTo }, NOW);
    if (admitted) {
      expect(admit()).toEqual({
        subject: "machine:host-1",
        role: "agent",
        machine: "host-1",
        proof: "certificate",
      });
    } else {
      expect(admit).toThrow(expect.objectContaining({ code: "unauthenticated" }));
      expect(admit).toThrow(
        /^the client certificate of machine host-1 expired at 2026-11-30T(09:59:59|10:00:00)\.000Z/,
      );
    }
  });

  it("refuses a certificate that names no machine", () => {
    expect(() =>
      agentOfCertificate({ subjectAltName: "DNS:x", validTo: "Nov 30 11:00:00 2026 GMT" }, NOW),
    ).toThrow("the client certificate names no machine (a SAN URI spiffe://racksmith/machine/<id>)");
  });
});
