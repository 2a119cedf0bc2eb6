/** Where the CLI reads and writes; the real process in `bin.ts`, buffers in tests. */
export interface CliIo {
  stdout: { write(text: string): void; isTTY?: boolean };
  stderr: { write(text: string): void; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Resolves when the user asks a long-running command (a server) to stop. */
  untilStopped(): Promise<void>;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    untilStopped: () =>
      new Promise((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
      }),
  };
}
