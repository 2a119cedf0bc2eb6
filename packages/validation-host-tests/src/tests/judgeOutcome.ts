import type { HostTest, HostTestOutcome } from "@racksmith/core";

const MAX_DETAIL = 200;

/** A test passes when it exits 0 within its timeout; otherwise the message says how it ended. */
export function judgeOutcome(test: HostTest, outcome: HostTestOutcome): { passed: boolean; message: string } {
  if (outcome.timedOut) {
    return {
      passed: false,
      message: `stopped at its timeout of ${seconds(test.timeoutMs)}${detail(outcome)}`,
    };
  }
  if (outcome.exitCode === 0) return { passed: true, message: "exit code 0" };
  const ended =
    outcome.exitCode === null ? "ended without an exit code (killed)" : `exit code ${outcome.exitCode}`;
  return { passed: false, message: `${ended}${detail(outcome)}` };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The last line the test wrote to stderr (else stdout), so the failure says what the tool said. */
function detail(outcome: HostTestOutcome): string {
  const lines = (outcome.stderr.trim() || outcome.stdout.trim()).split("\n");
  const last = lines.at(-1)?.trim() ?? "";
  return last ? `: ${last.slice(0, MAX_DETAIL)}` : "";
}
