/**
 * The benchmark's BMC: the project's mockup server (what `racksmith mockup serve` runs) in a process of its
 * own, so its CPU is not the measured client's. Started by run.ts with an IPC channel: it sends
 * `{ url }` once listening and answers each `"stats"` message with its request counters and CPU.
 */
import { MockupServer } from "@racksmith/testkit";

const [root] = process.argv.slice(2);
if (!root || !process.send) {
  console.error("usage: started by bench/redfish/run.ts with an IPC channel and the capture folder");
  process.exit(2);
}

const server = await MockupServer.start({ root, auth: "basic" });
const send = process.send.bind(process);

export interface ServerStatsMessage {
  requests: number;
  byMethod: Record<string, number>;
  maxInFlight: number;
  /** User + system CPU of the server process so far, in ms. */
  cpuMs: number;
}

process.on("message", (message) => {
  if (message !== "stats") return;
  const stats = server.stats;
  const cpu = process.cpuUsage();
  const reply: ServerStatsMessage = {
    requests: stats.total,
    byMethod: { ...stats.byMethod },
    maxInFlight: stats.maxInFlight,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  send(reply);
});
process.on("disconnect", () => {
  void server.stop().finally(() => process.exit(0));
});
send({ url: server.url });
