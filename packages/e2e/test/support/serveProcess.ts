import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
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
  /** The admin token the service wrote to its data directory (as the CLI on its machine finds it). */
  readonly token: string;
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
      const listening = listeningLine(output);
      if (listening) {
        clearTimeout(timer);
        resolve(handle(child, listening, () => output, exited));
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

/** Where the service listens and the file holding its admin token, from its "racksmith listening" line. */
function listeningLine(output: string): { url: string; token: string } | undefined {
  for (const line of output.split("\n")) {
    if (!line.includes('"racksmith listening"')) continue;
    const { http, adminTokenFile } = JSON.parse(line) as { http?: string; adminTokenFile?: string };
    if (http && adminTokenFile) return { url: http, token: readFileSync(adminTokenFile, "utf8").trim() };
  }
  return undefined;
}

function handle(
  child: ChildProcess,
  { url, token }: { url: string; token: string },
  output: () => string,
  exited: Promise<number | null>,
): ServeProcess {
  return {
    url,
    token,
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
