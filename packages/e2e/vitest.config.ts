import { mergeConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { baseConfig } from "../../vitest.base.ts";

// The files that take minutes, longest first: with no vitest cache (a clean clone) the default order would
// start the longest one last and leave it running alone at the end.
const LONGEST_FIRST = [
  "lifecycleCrash",
  "lifecycle",
  "nvlink",
  "fleetIngestion",
  "infiniband",
  "credentialRotation",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const name =
        file.moduleId
          .split("/")
          .at(-1)
          ?.replace(/\.test\.ts$/, "") ?? "";
      const index = LONGEST_FIRST.indexOf(name);
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// Each file starts its own service and fleet and mostly waits on them, so three files share the two cores.
// Timeouts are safety nets for a stuck run on a busy machine, never assertions about speed.
export default mergeConfig(baseConfig, {
  test: { maxWorkers: 3, sequence: { sequencer: LongestFirst }, testTimeout: 120_000, hookTimeout: 180_000 },
});
