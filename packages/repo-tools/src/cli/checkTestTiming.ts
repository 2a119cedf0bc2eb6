// `npm run lint` runs this: no test may put an upper bound on a wall-clock duration (it fails on a busy machine).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles, repositoryRoot } from "../files/index.ts";
import { findDurationBounds, isTestSource } from "../timing/index.ts";

const sources = listFiles(repositoryRoot).filter(isTestSource);
const findings = sources.flatMap((file) =>
  findDurationBounds(file, readFileSync(join(repositoryRoot, file), "utf8")),
);
for (const f of findings) {
  console.error(`${f.file}:${f.line}: ${f.matcher} on a duration (${f.subject})`);
}
if (findings.length > 0) {
  console.error(
    `\n${findings.length} upper bound(s) on wall-clock durations in tests. A busy machine makes any such bound fail:` +
      "\nassert order and outcome instead, and wait on events the test controls (see CONTRIBUTING.md).",
  );
  process.exit(1);
}
console.log(`test timing check: ${sources.length} test files, no upper bound on a duration`);
