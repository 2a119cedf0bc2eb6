import type { HostTestRules } from "@racksmith/core";
import { BUILT_IN_TESTS, judgeOutcome, parseTest, selectTests } from "../tests/index.js";

/** The package's rules as the service calls them. */
export const hostTestRules: HostTestRules = {
  name: "host-tests",
  description: "machine validation tests the host agent runs: stress, memory, GPU diagnostics, site tests",
  builtInTests: BUILT_IN_TESTS,
  parseTest,
  select: selectTests,
  judge: judgeOutcome,
};
