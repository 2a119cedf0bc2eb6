import type { JsonObject } from "@racksmith/testkit";
import { type Fleet, generateScenario, startFleet, type VirtualBmc } from "../../fleet/index.js";
import { startSimulatedAgents } from "../startSimulatedAgents.js";
import type { AgentTiming, SimulatedAgents } from "../types.js";
import { FakeAgentServer } from "./fakeAgentServer.js";

/** Small delays, so a test sees many polls in well under a second. */
export const FAST_TIMING: Partial<AgentTiming> = {
  bootDelayMs: 10,
  pollIntervalMs: 20,
  applyDelayMs: 10,
  discoveryDelayMs: 10,
  cleanupDelayMs: 10,
  notFoundRetryMs: 40,
  retryMs: 10,
  maxBackoffMs: 50,
  callTimeoutMs: 1000,
};

export interface Simulation {
  readonly fleet: Fleet;
  readonly server: FakeAgentServer;
  readonly agents: SimulatedAgents;
  readonly host: VirtualBmc;
  readonly dpu: VirtualBmc;
  stop(): Promise<void>;
}

/** Two hosts with one DPU each, the fake agent API, and agents on every machine. */
export async function startSimulation(): Promise<Simulation> {
  const fleet = await startFleet({ scenario: generateScenario({ hosts: 2 }) });
  const server = await FakeAgentServer.start();
  const agents = startSimulatedAgents({ fleet, grpcAddress: server.address, timing: FAST_TIMING });
  const host = fleet.bmcs.find((bmc) => bmc.kind === "host") as VirtualBmc;
  const dpu = fleet.bmc(host.plan.dpus[0] ?? "") as VirtualBmc;
  return {
    fleet,
    server,
    agents,
    host,
    dpu,
    async stop() {
      await agents.stop();
      server.stop();
      await fleet.stop();
    },
  };
}

function authorization(bmc: VirtualBmc): Record<string, string> {
  const { username, password } = bmc.credentials;
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
}

/** The BMC's (first) system, as it serves it. */
export async function systemOf(bmc: VirtualBmc): Promise<{ path: string; body: JsonObject }> {
  const members = (await bmc.read("/redfish/v1/Systems"))?.Members as Array<{ "@odata.id": string }>;
  const path = members[0]?.["@odata.id"] as string;
  return { path, body: (await bmc.read(path)) as JsonObject };
}

/** What the service's driver does: `#ComputerSystem.Reset` through the BMC's Redfish API. */
export async function reset(bmc: VirtualBmc, resetType: string): Promise<void> {
  const { path } = await systemOf(bmc);
  const answer = await bmc.handle({
    method: "POST",
    path: `${path}/Actions/ComputerSystem.Reset`,
    headers: { ...authorization(bmc), "content-type": "application/json" },
    body: { ResetType: resetType },
  });
  if (answer.status >= 300) throw new Error(`reset ${resetType} of ${bmc.id}: ${answer.status}`);
}

/** What the DPU driver's `bootOnce("uefiHttp")` does: a one-time override staged in the system's settings. */
export async function bootOnceUefiHttp(dpu: VirtualBmc): Promise<void> {
  const { path } = await systemOf(dpu);
  const answer = await dpu.handle({
    method: "PATCH",
    path: `${path}/Settings`,
    headers: { ...authorization(dpu), "content-type": "application/json" },
    body: {
      Boot: {
        BootSourceOverrideEnabled: "Once",
        BootSourceOverrideMode: "UEFI",
        BootSourceOverrideTarget: "UefiHttp",
      },
    },
  });
  if (answer.status >= 300) throw new Error(`boot once of ${dpu.id}: ${answer.status}`);
}

/**
 * A window of several poll intervals in which something must NOT happen. Only absence is checked across it:
 * on a busy machine the window holds fewer polls, which weakens the check but can never make it fail.
 */
export function settle(ms = 120): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls the agents have started, all RPCs and machines together. Counted on the agents' side when a call is
 * made (a stopped or silenced agent makes none), so unlike the fake server's record, which a call already
 * on the wire may still reach, it cannot move after the agents were stopped.
 */
export function callsMade(agents: SimulatedAgents): number {
  return Object.values(agents.stats.calls).reduce((sum, count) => sum + (count ?? 0), 0);
}
