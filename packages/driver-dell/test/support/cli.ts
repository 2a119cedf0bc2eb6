import { fileURLToPath } from "node:url";
import { type CliIo, runCli } from "@racksmith/cli";

/** The package folder: `racksmith driver test` runs from here, as an integrator would. */
export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** A config that names this package: plugin names resolve through node_modules above it. */
export const CONFIG = fileURLToPath(new URL("../fixtures/racksmith.yaml", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function memoryIo(cwd: string): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (text: string) => void out.push(text), isTTY: false },
    stderr: { write: (text: string) => void err.push(text), isTTY: false },
    env: {},
    cwd,
    untilStopped: () => Promise.resolve(),
  };
}

/** Runs the racksmith CLI in-process. */
export async function cli(argv: string[], cwd = PACKAGE_DIR): Promise<CliRun> {
  const io = memoryIo(cwd);
  const code = await runCli(argv, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
}

/** Runs a `--json` command and parses its output; a non-zero exit fails with the CLI's message. */
export async function cliJson<T = unknown>(argv: string[], cwd = PACKAGE_DIR): Promise<T> {
  const run = await cli([...argv, "--json"], cwd);
  if (run.code !== 0) throw new Error(`racksmith ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/** `racksmith redfish` against a mockup URL with this package's config. */
export function redfishArgs(url: string, ...operation: string[]): string[] {
  return [
    "redfish",
    "--address",
    url,
    "--username",
    "root",
    "--password",
    "racksmith",
    "--config",
    CONFIG,
    ...operation,
  ];
}
