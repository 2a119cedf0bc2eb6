import type { HostTest } from "@racksmith/core";

const HOUR = 3_600_000;
const VERSION = "v1";

const builtIn = (
  test: Omit<HostTest, "version" | "enabled" | "platforms" | "skus"> & Partial<HostTest>,
): HostTest => ({
  version: VERSION,
  enabled: true,
  platforms: [],
  skus: [],
  ...test,
});

/**
 * The tests every site gets, read-only (NICo's deploy-time test cases, in the tools a discovery image carries):
 * short stress of CPUs and memory at discovery and after each cleanup, GPU diagnostics, and an echo that is
 * never verified (what a site copies to write its own).
 */
export const BUILT_IN_TESTS: readonly HostTest[] = [
  builtIn({
    id: "racksmith_CpuStressShort",
    name: "CpuStressShort",
    command: "stress-ng",
    args: ["--cpu", "0", "--timeout", "60s", "--metrics-brief"],
    timeoutMs: HOUR,
    verified: true,
    contexts: ["discovery", "cleanup"],
    description: "every CPU under load for a minute",
  }),
  builtIn({
    id: "racksmith_MemoryStressShort",
    name: "MemoryStressShort",
    command: "stress-ng",
    args: ["--vm", "0", "--vm-bytes", "80%", "--timeout", "60s", "--metrics-brief"],
    timeoutMs: HOUR,
    verified: true,
    contexts: ["discovery", "cleanup"],
    description: "80 % of memory written and checked for a minute",
  }),
  builtIn({
    id: "racksmith_DcgmDiagShort",
    name: "DcgmDiagShort",
    command: "dcgmi",
    args: ["diag", "-r", "1"],
    timeoutMs: HOUR,
    verified: true,
    contexts: ["discovery", "onDemand"],
    description: "NVIDIA DCGM quick diagnostics of every GPU",
  }),
  builtIn({
    id: "racksmith_DcgmDiagLong",
    name: "DcgmDiagLong",
    command: "dcgmi",
    args: ["diag", "-r", "3"],
    timeoutMs: 2 * HOUR,
    verified: true,
    contexts: ["onDemand"],
    description: "NVIDIA DCGM long diagnostics of every GPU (on demand)",
  }),
  builtIn({
    id: "racksmith_DefaultTestCase",
    name: "DefaultTestCase",
    command: "echo",
    args: ["racksmith machine validation"],
    timeoutMs: 60_000,
    verified: false,
    contexts: ["onDemand"],
    description: "prints a line: a template for site tests",
  }),
];
