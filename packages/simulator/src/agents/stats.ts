import type { AgentRpcName } from "./messages.js";
import type { SimulatedAgentsStats } from "./types.js";

/** Counters behind {@link SimulatedAgentsStats}; plain numbers, bumped on the hot path. */
export class AgentStatsCounter {
  readonly calls: Partial<Record<AgentRpcName, number>> = {};
  readonly errors: Record<string, number> = {};
  running = { host: 0, dpu: 0 };
  bootsSeen = 0;
  osInstalls = 0;
  certificatesIssued = 0;
  renewals = 0;
  tlsHandshakes = { full: 0, resumed: 0 };

  call(name: AgentRpcName): void {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  handshake(resumed: boolean): void {
    if (resumed) this.tlsHandshakes.resumed += 1;
    else this.tlsHandshakes.full += 1;
  }

  error(code: string): void {
    this.errors[code] = (this.errors[code] ?? 0) + 1;
  }

  snapshot(): SimulatedAgentsStats {
    return {
      calls: { ...this.calls },
      errors: { ...this.errors },
      agentsRunning: { ...this.running },
      bootsSeen: this.bootsSeen,
      osInstalls: this.osInstalls,
      certificatesIssued: this.certificatesIssued,
      renewals: this.renewals,
      tlsHandshakes: { ...this.tlsHandshakes },
    };
  }
}
