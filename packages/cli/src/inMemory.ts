import type { CliIo } from "./io.js";
import { runCli } from "./main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** An in-memory terminal for the CLI; `stop()` ends a long-running command such as `mockup serve`. */
export function memoryIo(cwd = process.cwd()): CliIo & { out: string[]; err: string[]; stop(): void } {
  const out: string[] = [];
  const err: string[] = [];
  let release: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    out,
    err,
    stdout: { write: (text: string) => void out.push(text), isTTY: false },
    stderr: { write: (text: string) => void err.push(text), isTTY: false },
    env: {},
    cwd,
    untilStopped: () => stopped,
    stop: () => release(),
  };
}

/** Runs `racksmith` in-process (drivers' and integrators' tests) and returns its exit code and output. */
export async function runCliInMemory(argv: readonly string[], cwd?: string): Promise<CliRun> {
  const io = memoryIo(cwd);
  const code = await runCli(argv, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
}

/** Runs a command with `--json` and parses its output; a non-zero exit throws with the CLI's stderr. */
export async function runCliJson<T = unknown>(argv: readonly string[], cwd?: string): Promise<T> {
  const run = await runCliInMemory([...argv, "--json"], cwd);
  if (run.code !== 0) throw new Error(`racksmith ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
