import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ServerStatsMessage } from "./server.js";

/** The mockup server's process (server.ts): its URL, its counters on demand, and a way to stop it. */
export interface MockupProcess {
  url: string;
  stats(): Promise<ServerStatsMessage>;
  stop(): Promise<void>;
}

/** Forks server.ts on `root` with this process' loader flags and waits until it listens. */
export async function startMockupProcess(root: string): Promise<MockupProcess> {
  const child = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [root], {
    execArgv: ["--conditions=@racksmith/source", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { url: string }).url));
    child.once("exit", (code) =>
      reject(new Error(`the mockup server exited (code ${code}) before listening`)),
    );
  });
  return {
    url,
    stats: () => request(child),
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await exited;
    },
  };
}

function request(child: ChildProcess): Promise<ServerStatsMessage> {
  return new Promise((resolve) => {
    child.once("message", (message) => resolve(message as ServerStatsMessage));
    child.send("stats");
  });
}
