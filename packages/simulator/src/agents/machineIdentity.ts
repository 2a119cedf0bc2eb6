import { X509Certificate } from "node:crypto";
import { type AgentCertificateRequest, createAgentCertificateRequest } from "@racksmith/server";
import type { AgentCertificate } from "./messages.js";

/** A machine's certificate, its key, and the CA and address of the agent listener it works with. */
export interface HeldCertificate {
  readonly privateKeyPem: string;
  readonly certificatePem: string;
  readonly caCertificatePem: string;
  readonly address: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
  readonly serial: string;
  /** The machine the service signed it for (what DiscoverMachine answered). */
  readonly machineId: string;
}

/**
 * One machine's identity as its agent holds it: the key it made, the certificate the service signed at
 * DiscoverMachine, and when to renew it (at two thirds of its life). Without a certificate (a service that
 * does not sign one) the agent keeps calling with the simulation's token.
 */
export class MachineIdentity {
  private pending: AgentCertificateRequest | undefined;
  private held: HeldCertificate | undefined;

  constructor(private readonly label: string) {}

  get certificate(): HeldCertificate | undefined {
    return this.held;
  }

  /** A new key and its CSR, for DiscoverMachine or a renewal; the key is kept until the answer comes. */
  async request(): Promise<string> {
    this.pending = await createAgentCertificateRequest(this.label);
    return this.pending.csrPem;
  }

  /**
   * The certificate, when it can be used again at a boot without asking for a new one: held, not past two
   * thirds of its life, and signed for the machine the service names now.
   */
  reusableFor(machineId: string, now = Date.now()): boolean {
    return this.held?.machineId === machineId && this.fresh(now);
  }

  /** Whether a certificate is held that is not yet due for renewal (a boot may try it before asking anew). */
  fresh(now = Date.now()): boolean {
    return this.held !== undefined && !this.renewalDue(now);
  }

  /**
   * Takes the certificate the service signed for the pending key, for `machineId`; none (no mTLS): keeps what
   * it has.
   */
  accept(granted: AgentCertificate | null | undefined, machineId: string, now = Date.now()): boolean {
    const key = this.pending;
    this.pending = undefined;
    if (!granted?.certificatePem || !key || !granted.agentAddress) return false;
    const parsed = new X509Certificate(granted.certificatePem);
    const notBefore = Date.parse(parsed.validFrom);
    this.held = {
      privateKeyPem: key.privateKeyPem,
      certificatePem: granted.certificatePem,
      caCertificatePem: granted.caCertificatePem,
      address: granted.agentAddress,
      // The service backdates a certificate a little for clock skew: its life is counted from now.
      issuedAtMs: Math.max(now, Number.isNaN(notBefore) ? now : notBefore),
      expiresAtMs: Date.parse(parsed.validTo),
      serial: parsed.serialNumber,
      machineId,
    };
    return true;
  }

  /** Whether two thirds of the certificate's life have passed. */
  renewalDue(now = Date.now()): boolean {
    const held = this.held;
    if (!held) return false;
    return now >= held.issuedAtMs + ((held.expiresAtMs - held.issuedAtMs) * 2) / 3;
  }

  /** Whether the certificate is past its end (a machine off longer than its life): it must discover anew. */
  expired(now = Date.now()): boolean {
    return this.held !== undefined && now >= this.held.expiresAtMs;
  }

  /** Forgets the certificate (the machine was wiped, or the service no longer knows it). */
  forget(): void {
    this.held = undefined;
    this.pending = undefined;
  }
}
