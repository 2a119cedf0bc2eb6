import type { Caller } from "../../api/index.js";
import { UnauthenticatedError } from "../errors.js";
import { MACHINE_URI_PREFIX } from "./agentCa.js";

/** A client certificate TLS verified, as Node describes it (`subjectaltname`, `valid_to`). */
export interface VerifiedPeer {
  subjectAltName: string | undefined;
  /** Its notAfter as Node prints it (`Nov 30 10:00:00 2026 GMT`); absent: not checked again. */
  validTo?: string | undefined;
}

/**
 * The machine a verified client certificate names: its SAN URI `spiffe://racksmith/machine/<id>`. Node lists
 * SANs as `URI:…, DNS:…`; undefined when there is none (or several machines, which this CA never signs).
 */
export function machineOfCertificate(subjectAltName: string | undefined): string | undefined {
  if (!subjectAltName) return undefined;
  const machines = subjectAltName
    .split(/,\s*/)
    .filter((entry) => entry.startsWith(`URI:${MACHINE_URI_PREFIX}`))
    .map((entry) => entry.slice(`URI:${MACHINE_URI_PREFIX}`.length));
  return machines.length === 1 && machines[0] ? machines[0] : undefined;
}

/**
 * The agent a verified client certificate names. Its expiry is checked at every call, not only by TLS: a
 * resumed TLS session (agents resume them) carries the certificate of its first handshake unverified, for the
 * session's lifetime.
 */
export function agentOfCertificate(peer: VerifiedPeer, now: number): Caller {
  const machine = machineOfCertificate(peer.subjectAltName);
  if (!machine) {
    throw new UnauthenticatedError(
      "the client certificate names no machine (a SAN URI spiffe://racksmith/machine/<id>)",
    );
  }
  const expiresAt = peer.validTo === undefined ? Number.NaN : Date.parse(peer.validTo);
  if (expiresAt <= now) {
    throw new UnauthenticatedError(
      `the client certificate of machine ${machine} expired at ${new Date(expiresAt).toISOString()}; connect again with a renewed one`,
    );
  }
  return { subject: `machine:${machine}`, role: "agent", machine, proof: "certificate" };
}
