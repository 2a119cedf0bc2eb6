import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { hostTestRules } from "./rules/index.js";

// Read at runtime so the manifest's version is the package's, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** The plugin a config lists (`plugins: [@racksmith/validation-host-tests]`): it registers the host test rules. */
export default definePlugin({
  name: "@racksmith/validation-host-tests",
  version,
  apiVersion: 1,
  description: "machine validation tests run on hosts",
  register(registry) {
    registry.hostTestRules(hostTestRules);
  },
});

export { hostTestRules } from "./rules/index.js";
export { BUILT_IN_TESTS, judgeOutcome, parseTest, selectTests } from "./tests/index.js";
