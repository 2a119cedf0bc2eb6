import type { CliIo } from "../../src/io.js";
import { runCli } from "../../src/main.js";

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

export async function cli(argv: string[], cwd?: string): Promise<CliRun> {
  const io = memoryIo(cwd);
  const code = await runCli(argv, io);
  return { code, stdout: io.out.join(""), stderr: io.err.join("") };
}

export async function cliJson<T = unknown>(argv: string[], cwd?: string): Promise<T> {
  const run = await cli([...argv, "--json"], cwd);
  if (run.code !== 0) throw new Error(`racksmith ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
