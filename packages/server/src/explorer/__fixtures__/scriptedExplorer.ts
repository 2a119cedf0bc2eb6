import type { ExplorationReport } from "@racksmith/core";
import type { BmcExplorer, EndpointExploration, EndpointToExplore } from "../endpointExplorer.js";
import type { ExplorationFailure } from "../explorationFailure.js";
import type { AuthFailures } from "../lockout.js";

export type Scripted = { report: ExplorationReport } | { error: ExplorationFailure };

/** A BMC explorer answering from a script per address, recording what it was asked; each exploration is 1 s later. */
export class ScriptedExplorer implements BmcExplorer {
  readonly explored: string[] = [];
  readonly poweredOn: string[] = [];
  readonly script = new Map<string, Scripted>();

  async explore(endpoint: EndpointToExplore): Promise<EndpointExploration> {
    this.explored.push(endpoint.address);
    const scripted = this.script.get(endpoint.address) ?? {
      error: { code: "unreachable", message: `nothing at ${endpoint.address}` },
    };
    const report = "report" in scripted ? scripted.report : undefined;
    return {
      report,
      error: "error" in scripted ? scripted.error : undefined,
      vendor: report?.vendor,
      driver: report?.driver.name,
      latencyMs: 5,
      exploredAt: new Date(Date.UTC(2026, 0, 1) + this.explored.length * 1_000),
      authFailures: endpoint.authFailures,
      rotated: false,
    };
  }

  async powerOn(endpoint: Omit<EndpointToExplore, "mayRotate">): Promise<AuthFailures> {
    this.poweredOn.push(endpoint.address);
    return endpoint.authFailures;
  }
}
