import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasErrorCode } from "@racksmith/core";
import { DEFAULT_CONFIG, type ExpectedMachine, type LoadedConfig } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedSiteMismatchError } from "./errors.js";
import { startSimulatedSite } from "./simulatedSite.js";
import { SITE_MANIFEST_FILE } from "./siteManifest.js";

const NO_PLUGINS: LoadedConfig = {
  config: { ...DEFAULT_CONFIG, plugins: [] },
  file: undefined,
  baseDir: tmpdir(),
};
const SITE = { hosts: 1, seed: 4, base: NO_PLUGINS };

let root: string;
let dir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "racksmith-site-resume-"));
  dir = join(root, "site");
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const expectedMachines = async (site: { url: string; token: string }): Promise<ExpectedMachine[]> => {
  const response = await fetch(`${site.url}/api/v1/expected-machines`, {
    headers: { authorization: `Bearer ${site.token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { machines: ExpectedMachine[] }).machines;
};

const refusal = (options: { hosts: number; seed: number }) =>
  startSimulatedSite({ ...SITE, ...options, dir }).then(
    async (site) => {
      await site.stop();
      throw new Error("the site started");
    },
    (error: unknown) => error as SimulatedSiteMismatchError,
  );

describe("a simulated site run again over its folder", () => {
  it("resumes the site its database holds: the same rows, nothing registered twice, and says so", async () => {
    const first = await startSimulatedSite({ ...SITE, dir });
    let registered: ExpectedMachine[];
    try {
      expect(first.resumed).toBe(false);
      expect(first.registration).toMatchObject({ expectedMachines: 1, alreadyExpected: 0 });
      registered = await expectedMachines(first);
    } finally {
      await first.stop();
    }
    expect(JSON.parse(await readFile(join(dir, SITE_MANIFEST_FILE), "utf8"))).toEqual({ hosts: 1, seed: 4 });

    const second = await startSimulatedSite({ ...SITE, dir });
    try {
      expect(second.resumed).toBe(true);
      expect(second.registration).toMatchObject({ expectedMachines: 1, alreadyExpected: 1, discoveries: 2 });
      // The rows the first run wrote (a fresh database would have made new ones, with new times).
      expect(await expectedMachines(second)).toEqual(registered);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it("refuses other hosts or another seed before starting anything, saying what differs and how to start afresh", async () => {
    const config = await stat(join(dir, "racksmith.yaml"));
    const error = await refusal({ hosts: 2, seed: 5 });
    expect(error).toBeInstanceOf(SimulatedSiteMismatchError);
    expect(hasErrorCode(error, "simulated_site_mismatch")).toBe(true);
    expect(error.message).toBe(
      `${dir} holds another simulated site: hosts 1 (this run: 2); seed 4 (this run: 5) — resume it with hosts 1 and seed 4, or start afresh in another folder (or remove ${dir})`,
    );
    // The site's config was not rewritten for the other site.
    expect((await stat(join(dir, "racksmith.yaml"))).mtimeMs).toBe(config.mtimeMs);
  });

  it("refuses a database holding another site's machines, also without the folder's manifest", async () => {
    await rm(join(dir, SITE_MANIFEST_FILE));
    const error = await refusal({ hosts: 1, seed: 5 });
    expect(error).toBeInstanceOf(SimulatedSiteMismatchError);
    expect(error.where).toBe(`the database in ${dir}`);
    expect(error.differences).toEqual([expect.stringMatching(/^1 expected machines are not the fleet's \(/)]);
    expect(error.message).toContain(`start afresh in another folder (or remove ${dir})`);
  }, 60_000);
});
