import type { HostTest, HostTestOutcome } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { BUILT_IN_TESTS } from "./builtInTests.js";
import { judgeOutcome } from "./judgeOutcome.js";

const test = { ...(BUILT_IN_TESTS[0] as HostTest), timeoutMs: 90_000 };
const outcome = (change: Partial<HostTestOutcome>): HostTestOutcome => ({
  testId: test.id,
  exitCode: 0,
  stdout: "",
  stderr: "",
  startedAt: "2026-01-01T00:00:00.000Z",
  endedAt: "2026-01-01T00:00:01.000Z",
  timedOut: false,
  ...change,
});

describe("judgeOutcome", () => {
  it.each<[string, Partial<HostTestOutcome>, boolean, string]>([
    ["exit 0", {}, true, "exit code 0"],
    [
      "exit 0 after its timeout still failed",
      { timedOut: true, exitCode: 0 },
      false,
      "stopped at its timeout of 90 s",
    ],
    [
      "a non-zero exit, with the tool's last word",
      { exitCode: 2, stderr: "warming up\nfan 3: 0 RPM\n" },
      false,
      "exit code 2: fan 3: 0 RPM",
    ],
    [
      "killed",
      { exitCode: null, stdout: "Segmentation fault" },
      false,
      "ended without an exit code (killed): Segmentation fault",
    ],
    ["a timeout", { timedOut: true, exitCode: null }, false, "stopped at its timeout of 90 s"],
  ])("%s", (_name, change, passed, message) => {
    expect(judgeOutcome(test, outcome(change))).toEqual({ passed, message });
  });
});
