/**
 * The virtual BMCs of bench:monitor in a process of their own, so the bench process's CPU and memory are the
 * monitor's alone. Started by run.ts over an IPC channel: it sends `ready` with the fleet's URL and BMCs, answers
 * `stats` with the fleet's request counters, and stops on `stop`.
 */
import { connectBmc, redfishStandardDriver } from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import { generateScenario, startFleet } from "@racksmith/simulator";
import { vendorDrivers } from "./drivers.js";

export interface FleetBmcInfo {
  id: string;
  kind: "host" | "dpu";
  serial: string;
  address: string | undefined;
  mac: string;
  vendor: string;
  model: string;
  credentials: { username: string; password: string };
}

export type FleetMessage =
  | { kind: "ready"; url: string; bmcs: FleetBmcInfo[] }
  | { kind: "selected"; drivers: Record<string, string> }
  | { kind: "stats"; stats: unknown }
  | { kind: "stopped" };

const send = (message: FleetMessage) => process.send?.(message);

const hosts = Number(process.argv[2]);
const fleet = await startFleet({ scenario: generateScenario({ hosts }) });
send({
  kind: "ready",
  url: fleet.url,
  bmcs: fleet.bmcs.map((bmc) => ({
    id: bmc.id,
    kind: bmc.kind,
    serial: bmc.serial,
    address: bmc.address,
    mac: bmc.mac,
    vendor: bmc.vendor,
    model: bmc.model,
    credentials: { username: bmc.credentials.username, password: bmc.credentials.password },
  })),
});
process.on("message", async (message: "select" | "stats" | "stop") => {
  if (message === "select") send({ kind: "selected", drivers: await selectDrivers() });
  if (message === "stats") send({ kind: "stats", stats: fleet.stats });
  if (message === "stop") {
    await fleet.stop();
    send({ kind: "stopped" });
    process.disconnect();
  }
});

/** Each BMC's driver by name, 20 BMCs at a time (as the explorer would). */
async function selectDrivers(): Promise<Record<string, string>> {
  const drivers = await vendorDrivers();
  const chosen: Record<string, string> = {};
  const queue = [...fleet.bmcs];
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (let bmc = queue.shift(); bmc; bmc = queue.shift()) {
        const probe = new RedfishClient({
          address: `http://${bmc.address}`,
          connectVia: fleet.url,
          credentials: bmc.credentials,
          keepConnections: false,
        });
        const { selection } = await connectBmc(probe, { drivers, fallback: redfishStandardDriver });
        chosen[bmc.id] = selection.driver.name;
        await probe.close();
      }
    }),
  );
  return chosen;
}
