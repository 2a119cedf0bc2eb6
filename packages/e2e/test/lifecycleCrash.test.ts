import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invalidTransitions, type MachineDetail, type MachineView, ServiceClient } from "@racksmith/server";
import {
  type Fleet,
  fastTimings,
  generateScenario,
  registerFleet,
  type SimulatedAgents,
  startFleet,
  startSimulatedAgents,
  writeSimulatedSite,
} from "@racksmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startServe } from "./support/serveProcess.js";
import { ALL_DRIVERS } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 50;
const KILLS = 20;

/** A free TCP port on loopback (the service keeps its ports across restarts, so agents find it again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Acceptance (issue 6): racksmith serve SIGKILLed at random moments 20 times during a 50-host run, restarted
// each time: every host still reaches Ready and no history skips or repeats a transition. The fleet and the
// agents live in this process and outlive every kill, as real BMCs and agents would.
describe(`racksmith serve killed ${KILLS} times during a ${HOSTS}-host run`, () => {
  let fleet: Fleet;
  let agents: SimulatedAgents;
  let service: ServeProcess | undefined;
  let dir: string;
  let configFile: string;
  let url: string;
  let token: string;

  beforeAll(async () => {
    fleet = await startFleet({
      scenario: generateScenario({ hosts: HOSTS, seed: 21 }),
      service: { taskDurationMs: 50 },
    });
    dir = await mkdtemp(join(tmpdir(), "racksmith-e2e-crash-"));
    const [http, grpc] = [await freePort(), await freePort()];
    configFile = await writeSimulatedSite({
      dir,
      fleet,
      base: ALL_DRIVERS,
      sections: {
        database: { dataDir: "data" },
        server: { http: `127.0.0.1:${http}`, grpc: `127.0.0.1:${grpc}` },
        ...fastTimings(HOSTS),
        // startServe waits for the "racksmith listening" line (info).
        log: { level: "info" },
      },
    });
    service = await startServe(configFile, dir);
    url = service.url;
    // Kept across restarts: the service keeps the admin token its data directory holds.
    token = service.token;
    await registerFleet(fleet, new ServiceClient(url, { token }));
    agents = startSimulatedAgents({ fleet, grpcAddress: `127.0.0.1:${grpc}`, token });
    // A safety net: a fleet, a service migrating a fresh data directory and the registration of 50 hosts take
    // well over a minute beside the rest of a CI run.
  }, 300_000);

  afterAll(async () => {
    await agents?.stop();
    await service?.stop();
    await fleet?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const call = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const hosts = async () =>
    (await call<{ machines: MachineView[] }>("/api/v1/machines")).machines.filter((m) => m.kind === "host");

  it("gets every host to Ready with every history intact", async () => {
    // Kill while hosts move: from the first ingestions on.
    await waitFor(async () => (await hosts()).length > 0, {
      what: "the first managed host",
      timeoutMs: 120_000,
    });
    let killsWhileMoving = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      // A random moment: when it comes, not how long anything takes, is what the wait is for.
      await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 2_500));
      // A service slow to answer on a busy machine is asked again, not taken for a finished run.
      const states = (
        await waitFor(() => hosts().catch(() => undefined), { what: "the managed hosts", timeoutMs: 60_000 })
      ).map((h) => h.state);
      // Hosts not ingested yet or not Ready: the run is still moving.
      if (states.length < HOSTS || states.some((state) => state !== "ready")) killsWhileMoving++;
      await service?.kill();
      service = await startServe(configFile, dir);
    }
    expect(killsWhileMoving).toBeGreaterThanOrEqual(KILLS / 2);

    await waitFor(
      async () => {
        const all = await hosts();
        return all.length === HOSTS && all.every((h) => h.state === "ready");
      },
      {
        what: `${HOSTS} Ready hosts after ${KILLS} kills`,
        // Bounds a run that is stuck, not a slow one: a busy machine takes minutes.
        timeoutMs: 1_200_000,
        everyMs: 1_000,
        describe: async () =>
          (await hosts())
            .filter((h) => h.state !== "ready")
            .map((h) => `${h.id} ${h.state}`)
            .join("\n"),
      },
    );
    for (const host of await hosts()) {
      const detail = await call<MachineDetail>(`/api/v1/machines/${host.id}`);
      const entries = [...detail.history].reverse();
      // Each state entered once per version: none skipped (versions 1..n) and none written twice.
      expect(entries.map((e) => Number(e.version))).toEqual(entries.map((_, index) => index + 1));
      const labels = entries.map((e) => e.label);
      expect(invalidTransitions(labels), host.id).toEqual([]);
      // One DPU per host and no injected failure: no state may follow itself (a transition written twice).
      for (let i = 1; i < labels.length; i++) {
        expect(labels[i], `${host.id} repeated ${labels[i]} (v${i + 1})`).not.toBe(labels[i - 1]);
      }
      expect(labels[0]).toBe("created");
      expect(labels.at(-1)).toBe("ready");
    }
  }, 1_800_000);
});
