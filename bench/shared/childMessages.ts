import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

/**
 * The child process's next IPC message of this kind (a bench's helper process); throws when the process exits
 * first. Ask for it right after sending what it answers: a message that arrives while nobody waits is dropped.
 */
export async function nextMessage<M extends { kind: string }, K extends M["kind"]>(
  child: ChildProcess,
  kind: K,
): Promise<Extract<M, { kind: K }>> {
  const exited = once(child, "exit").then(([code]) => ({ exitCode: code as number | null }));
  for (;;) {
    const got = await Promise.race([once(child, "message").then(([message]) => message as M), exited]);
    if ("exitCode" in got)
      throw new Error(`the ${child.spawnfile} process exited (code ${got.exitCode}) before sending ${kind}`);
    if (got.kind === kind) return got as Extract<M, { kind: K }>;
  }
}
