import { type CliIo, runCli } from "@racksmith/cli";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `racksmith` in-process against an in-memory terminal (same pattern as the CLI's own tests). */
export async function cli(argv: string[], cwd = process.cwd()): Promise<CliRun> {
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

/** Runs a command with `--json` and parses its output; a non-zero exit fails with the CLI's stderr. */
export async function cliJson<T>(argv: string[], cwd?: string): Promise<T> {
  const run = await cli([...argv, "--json"], cwd);
  if (run.code !== 0) throw new Error(`racksmith ${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
