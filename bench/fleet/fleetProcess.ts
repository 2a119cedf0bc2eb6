/**
 * The simulated side of bench:fleet in a process of its own — the virtual BMCs, the DPU and host agents and
 * the fleet's registration — so the bench process's CPU and memory are the service's alone. Driven by run.ts
 * over IPC: sends `fleet` (its URL and factory passwords), then on `service` starts the agents against the
 * service and registers the fleet as `racksmith simulate` does, answers `figures`, and stops on `stop`.
 */
import { ServiceClient } from "@racksmith/server";
import { generateScenario, registerFleet, startFleet, startSimulatedAgents } from "@racksmith/simulator";

export type ToFleet =
  | { kind: "service"; url: string; grpcAddress: string; token: string }
  | { kind: "figures" }
  | { kind: "stop" };

export interface FleetFigures {
  redfishRequests: number;
  agentCalls: number;
  /** The agents' mTLS connections to the agent listener: full handshakes and resumed sessions. */
  agentTlsHandshakes: { full: number; resumed: number };
  cpuSeconds: number;
  peakRssMb: number;
}

export type FromFleet =
  | { kind: "fleet"; url: string; factoryDefaults: Record<string, { username: string; password: string }> }
  /** What was served and called before registration was done: rates count from there. */
  | { kind: "registered"; redfishRequests: number; agentCalls: number }
  | { kind: "figures"; figures: FleetFigures }
  | { kind: "stopped" };

// tsx maps every stack trace to the TypeScript sources, which the built service does not do (every closed
// connection makes an error whose stack Node reads): the bench runs as the built code would.
process.setSourceMapsEnabled(false);
const send = (message: FromFleet) => process.send?.(message);

const hosts = Number(process.argv[2]);
const pollMs = Number(process.argv[3]);
const cpuStart = process.cpuUsage();
const fleet = await startFleet({
  scenario: generateScenario({ hosts, seed: 1 }),
  service: { taskDurationMs: 50 },
});
send({ kind: "fleet", url: fleet.url, factoryDefaults: fleet.factoryDefaults });

let agents: Awaited<ReturnType<typeof startSimulatedAgents>> | undefined;
const agentCalls = () => Object.values(agents?.stats.calls ?? {}).reduce((sum, n) => sum + (n ?? 0), 0);
process.on("message", async (message: ToFleet) => {
  if (message.kind === "service") {
    // Agents listen to their machines' power before the service knows the fleet (see startSimulatedSite).
    agents = await startSimulatedAgents({
      fleet,
      grpcAddress: message.grpcAddress,
      token: message.token,
      timing: { pollIntervalMs: pollMs, callTimeoutMs: 30_000 },
    });
    await registerFleet(fleet, new ServiceClient(message.url, { token: message.token }), { exclusive: true });
    send({ kind: "registered", redfishRequests: fleet.stats.total, agentCalls: agentCalls() });
  } else if (message.kind === "figures") {
    const cpu = process.cpuUsage(cpuStart);
    send({
      kind: "figures",
      figures: {
        redfishRequests: fleet.stats.total,
        agentCalls: agentCalls(),
        agentTlsHandshakes: agents?.stats.tlsHandshakes ?? { full: 0, resumed: 0 },
        cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      },
    });
  } else {
    await agents?.stop();
    await fleet.stop();
    send({ kind: "stopped" });
    process.disconnect();
  }
});
