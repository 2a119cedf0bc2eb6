import { fileURLToPath } from "node:url";
import { type CliRun, runCliInMemory, runCliJson } from "@racksmith/cli";
import { redfishCliArgs } from "@racksmith/testkit";

/** The package folder: `racksmith driver test` runs from here, as an integrator would. */
export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** A config that names this package: plugin names resolve through node_modules above it. */
export const CONFIG = fileURLToPath(new URL("../fixtures/racksmith.yaml", import.meta.url));

/** `racksmith redfish … <operation>` against a mockup URL with this package's config. */
export const redfishArgs = (url: string, ...operation: string[]): string[] =>
  redfishCliArgs({ url, config: CONFIG }, ...operation);

/** Runs `racksmith` in-process, from the package folder unless told otherwise. */
export const cli = (argv: string[], cwd: string = PACKAGE_DIR): Promise<CliRun> => runCliInMemory(argv, cwd);

export const cliJson = <T = unknown>(argv: string[], cwd: string = PACKAGE_DIR): Promise<T> =>
  runCliJson<T>(argv, cwd);
