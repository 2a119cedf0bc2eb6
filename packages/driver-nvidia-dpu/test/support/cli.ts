import { fileURLToPath } from "node:url";
import { type CliIo, runCli } from "@racksmith/cli";
import { PACKAGE_DIR } from "./paths.js";

/** The config that lists this package by name, as an operator's would. */
export const FIXTURE_CONFIG = fileURLToPath(new URL("../fixtures/racksmith.yaml", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `racksmith` in-process with an in-memory terminal, from this package's folder by default. */
export async function cli(argv: string[], cwd = PACKAGE_DIR): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => void out.push(text), isTTY: false },
    stderr: { write: (text: string) => void err.push(text), isTTY: false },
    env: {},
    cwd,
    untilStopped: () => Promise.resolve(),
  };
  const code = await runCli(argv, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

export async function cliJson<T = unknown>(argv: string[], cwd?: string): Promise<T> {
  const run = await cli([...argv, "--json"], cwd);
  if (run.code !== 0) throw new Error(`racksmith ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

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
