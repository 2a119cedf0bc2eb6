import { delay } from "./agentContext.js";
import { type HostTestSpec, timestamp, type ValidationTestResult } from "./messages.js";

/** How a simulated test goes: it passes, fails (exit 1), hangs until its timeout stops it, or crashes. */
export const HOST_TEST_BEHAVIOURS = ["pass", "fail", "hang", "crash"] as const;
export type HostTestBehaviour = (typeof HOST_TEST_BEHAVIOURS)[number];

/** How long a simulated test that ends by itself runs. */
const RUN_MS = 50;

/**
 * Runs one test as the discovery image would, without running anything: what its command "does" is the
 * behaviour the scenario gave the test on this host. A hanging test is stopped at its timeout, as the real
 * agent stops one, and reported so.
 */
export async function runSimulatedTest(
  spec: HostTestSpec,
  behaviour: HostTestBehaviour,
  signal: AbortSignal,
): Promise<ValidationTestResult> {
  const started = Date.now();
  const timeoutMs = Number(spec.timeoutMs);
  const commandLine = [spec.command, ...spec.args].join(" ");
  let ended: { exitCode?: number; stdout: string; stderr: string; timedOut: boolean };
  if (behaviour === "hang") {
    await delay(timeoutMs, signal, true);
    ended = { stdout: "", stderr: `${spec.command}: stopped after ${timeoutMs} ms`, timedOut: true };
  } else {
    await delay(RUN_MS, signal);
    ended =
      behaviour === "pass"
        ? { exitCode: 0, stdout: `${commandLine}: ok`, stderr: "", timedOut: false }
        : behaviour === "fail"
          ? { exitCode: 1, stdout: "", stderr: `${spec.command}: simulated failure`, timedOut: false }
          : { stdout: "", stderr: "Segmentation fault (core dumped)", timedOut: false };
  }
  const finished = Date.now();
  const passed = ended.exitCode === 0 && !ended.timedOut;
  return {
    name: spec.id,
    passed,
    message: passed ? "passed" : ended.stderr,
    durationMs: String(finished - started),
    ...ended,
    startedAt: timestamp(started),
    endedAt: timestamp(finished),
  };
}
