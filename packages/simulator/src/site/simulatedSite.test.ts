import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CONFIG, type LoadedConfig } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATED_GPUS_PER_HOST, simulatedIbPorts } from "../agents/index.js";
import { type SimulatedSite, startSimulatedSite } from "./simulatedSite.js";

// An operator config with no plugins: the site adds the fabric plugins it simulates.
const NO_PLUGINS: LoadedConfig = {
  config: { ...DEFAULT_CONFIG, plugins: [] },
  file: undefined,
  baseDir: tmpdir(),
};
const HOSTS = 2;

let dir: string;
let site: SimulatedSite;

beforeAll(async () => {
  // The site folder does not exist yet, as with `racksmith simulate --data-dir` of a new folder.
  dir = join(await mkdtemp(join(tmpdir(), "racksmith-site-")), "site");
  site = await startSimulatedSite({
    hosts: HOSTS,
    base: NO_PLUGINS,
    dir,
    ufm: true,
    nmxm: { operationPollMs: 50 },
  });
});

afterAll(async () => {
  await site?.stop();
  if (dir) await rm(join(dir, ".."), { recursive: true, force: true });
});

const mode = async (name: string) => (await stat(join(dir, name))).mode & 0o777;

describe("startSimulatedSite", () => {
  it("runs the service and registers the fleet with it: an expected machine per host, a discovery per BMC", async () => {
    expect(site.registration).toEqual({
      server: site.url,
      expectedMachines: HOSTS,
      alreadyExpected: 0,
      discoveries: 2 * HOSTS,
    });
    expect(site.resumed).toBe(false);
    expect(site.fleet.bmcs.every((bmc) => bmc.address !== undefined)).toBe(true);
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
    const answer = await fetch(`${site.url}/api/v1/expected-machines`, {
      headers: { authorization: `Bearer ${site.token}` },
    });
    expect(((await answer.json()) as { machines: unknown[] }).machines).toHaveLength(HOSTS);
  });

  it("writes a site folder whose config loads the fabric plugins it simulates, with 0600 secrets", async () => {
    const config = JSON.parse(await readFile(site.configFile, "utf8")) as {
      plugins: string[];
      siteExplorer: { bmcProxy: string };
      fabrics: { infiniband: Record<string, unknown>; nvlink: Record<string, unknown> };
    };
    const names = await Promise.all(
      config.plugins.map(
        async (folder) => JSON.parse(await readFile(join(folder, "package.json"), "utf8")).name,
      ),
    );
    expect(names).toEqual(["@racksmith/fabric-ufm", "@racksmith/fabric-nmxm"]);
    expect(config.siteExplorer.bmcProxy).toBe(site.fleet.url);
    expect(config.fabrics.infiniband).toMatchObject({ endpoint: site.ufm?.url, tokenFile: "ufm-token" });
    expect(config.fabrics.nvlink).toMatchObject({
      endpoint: site.nmxm?.url,
      passwordFile: "nmxm-password",
      operationPollMs: 50,
    });
    for (const secret of ["site-password", "ufm-token", "nmxm-password"])
      expect(await mode(secret)).toBe(0o600);
  });

  it("wires the UFM simulator to the hosts' IB ports and the NMX-M simulator to their GPUs", () => {
    const hosts = site.fleet.bmcs.filter((bmc) => bmc.kind === "host");
    const guids = hosts.flatMap((bmc) => simulatedIbPorts(bmc.id).map((port) => port.guid));
    expect([...(site.ufm?.state.ports.keys() ?? [])].sort()).toEqual(guids.sort());
    const gpus = site.nmxm?.gpus() ?? [];
    expect(gpus).toHaveLength(HOSTS * SIMULATED_GPUS_PER_HOST);
    expect(new Set(gpus.map((gpu) => gpu.hostId))).toEqual(new Set(hosts.map((bmc) => bmc.id)));
  });

  it("stops the agents, service, fabric simulators and fleet, once", async () => {
    const urls = [site.url, site.fleet.url, site.ufm?.url, site.nmxm?.url];
    await site.stop();
    await site.stop();
    const reached = await Promise.all(
      urls.map((url) =>
        fetch(`${url}/`).then(
          () => true,
          () => false,
        ),
      ),
    );
    expect(reached).toEqual([false, false, false, false]);
  });
});
