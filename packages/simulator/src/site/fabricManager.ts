import { createRequire } from "node:module";
import { dirname } from "node:path";
import { writeSecretFile } from "./siteFiles.js";

/** A fabric manager's simulator wired into a simulated site: the simulator, and how the site reaches it. */
export interface SimulatedFabricManager<Simulator> {
  simulator: Simulator;
  /** The site config's section for the fabric (`fabrics.infiniband`, `fabrics.nvlink`). */
  section: Record<string, unknown>;
  /** The fabric plugin to add to the site config's plugins (a folder path). */
  plugin: string;
}

/**
 * Starts a fabric manager's simulator for a site: its credential (token, password) written first as a 0600
 * file of the site folder, which may not exist yet (`racksmith simulate --data-dir` of a new folder), and the
 * fabric plugin's folder, for the site config to load it from.
 */
export async function startSimulatedFabricManager<Simulator>(options: {
  dir: string;
  /** The fabric plugin package (`@racksmith/fabric-ufm`), a dependency of this package. */
  pluginPackage: string;
  /** The credential file the section names, relative to the site folder. */
  secretFile: string;
  secret: string;
  start: () => Promise<Simulator>;
  section: (simulator: Simulator) => Record<string, unknown>;
}): Promise<SimulatedFabricManager<Simulator>> {
  const plugin = dirname(createRequire(import.meta.url).resolve(`${options.pluginPackage}/package.json`));
  await writeSecretFile(options.dir, options.secretFile, options.secret);
  const simulator = await options.start();
  return { simulator, plugin, section: options.section(simulator) };
}
