import type { AgentCa } from "./agentCa.js";

/** A machine's client certificate for the agent listener, and how to reach and trust the listener. */
export interface AgentCertificateGrant {
  certificatePem: string;
  caCertificatePem: string;
  /** host:port of the agent listener. */
  agentAddress: string;
  expiresAt: Date;
}

/** What the lifecycle's agent API asks of authentication: certificates for machines it identified. */
export interface AgentCertificates {
  /** Signs the agent's CSR for `machineId` (its key stays with the agent). */
  issue(machineId: string, csrPem: string): Promise<AgentCertificateGrant>;
}

/** Issues machine certificates from the agents' CA, announcing the agent listener once it listens. */
export class CaAgentCertificates implements AgentCertificates {
  private address: string | undefined;

  constructor(
    private readonly ca: AgentCa,
    private readonly ttlMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Where agents reach the agent listener (known once it is bound). */
  announce(address: string): void {
    this.address = address;
  }

  async issue(machineId: string, csrPem: string): Promise<AgentCertificateGrant> {
    const now = this.clock();
    const certificatePem = await this.ca.issueAgentCertificate(csrPem, machineId, this.ttlMs, now);
    return {
      certificatePem,
      caCertificatePem: this.ca.certificatePem,
      agentAddress: this.address ?? "",
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
  }
}
