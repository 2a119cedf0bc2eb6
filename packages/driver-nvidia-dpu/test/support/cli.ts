import { fileURLToPath } from "node:url";
import { type CliRun, runCliInMemory, runCliJson } from "@racksmith/cli";
import { PACKAGE_DIR } from "./paths.js";

/** The config that lists this package by name, as an operator's would. */
export const FIXTURE_CONFIG = fileURLToPath(new URL("../fixtures/racksmith.yaml", import.meta.url));

/** `racksmith redfish` flags for a mockup server with basic auth, loading this package through the config. */
export function redfishArgs(url: string, password: string): string[] {
  return [
    "redfish",
    "--address",
    url,
    "--username",
    "root",
    "--password",
    password,
    "--config",
    FIXTURE_CONFIG,
  ];
}

/** Runs `racksmith` in-process, from the package folder unless told otherwise. */
export const cli = (argv: string[], cwd: string = PACKAGE_DIR): Promise<CliRun> => runCliInMemory(argv, cwd);

export const cliJson = <T = unknown>(argv: string[], cwd: string = PACKAGE_DIR): Promise<T> =>
  runCliJson<T>(argv, cwd);
