import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const CLI_SOURCE = join(dirname(require.resolve("@racksmith/cli/package.json")), "src", "bin.ts");
const TSX = pathToFileURL(require.resolve("tsx")).href;
const STARTUP_TIMEOUT_MS = 180_000;

/** `racksmith serve` running in its own process, as an operator runs it. */
export interface ServeProcess {
  /** The REST base URL (`http://127.0.0.1:PORT`). */
  readonly url: string;
  /** Everything it printed (JSON log lines) so far. */
  output(): string;
  /** Ends it the hard way (power loss, OOM kill): no cleanup runs. */
  kill(): Promise<void>;
  /** Asks it to stop (SIGTERM) and waits for its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `racksmith serve --config FILE` from the CLI's TypeScript sources (no build needed) and resolves once
 * it logged where it listens. Its ports come from the config (port 0 picks free ones).
 */
export function startServe(configFile: string, cwd: string): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ["--conditions=@racksmith/source", "--import", TSX, CLI_SOURCE, "serve", "--config", configFile],
    {
      cwd,
      env: { ...process.env, RACKSMITH_PLUGIN_CONDITIONS: "@racksmith/source", RACKSMITH_DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`racksmith serve did not start in ${STARTUP_TIMEOUT_MS} ms:\n${output}`));
    }, STARTUP_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = listeningUrl(output);
      if (url) {
        clearTimeout(timer);
        resolve(handle(child, url, () => output, exited));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`racksmith serve exited with ${code} before it listened:\n${output}`));
    });
  });
}

function listeningUrl(output: string): string | undefined {
  for (const line of output.split("\n")) {
    if (!line.includes('"racksmith listening"')) continue;
    const { http } = JSON.parse(line) as { http?: string };
    if (http) return http;
  }
  return undefined;
}

function handle(
  child: ChildProcess,
  url: string,
  output: () => string,
  exited: Promise<number | null>,
): ServeProcess {
  return {
    url,
    output,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
