import { RacksmithError } from "@racksmith/core";

/** A fault control named a BMC that has no simulated agent of the wanted kind. */
export class SimulatedAgentNotFoundError extends RacksmithError {
  constructor(key: string, kind: "host" | "dpu" | "host or DPU") {
    super("simulated_agent_not_found", "NOT_FOUND", `no ${kind} virtual BMC has the id or MAC ${key}`, {
      details: { key, kind },
    });
  }
}
