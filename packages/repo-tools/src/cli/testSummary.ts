// `.ci/run` ends with this: one line per package from the JSON reports the test run left, then the totals.
import { packageFolders, repositoryRoot } from "../files/index.ts";
import { allPassed, formatSummary, readPackageReports, testedPackages } from "../reports/index.ts";

const packages = testedPackages(repositoryRoot, packageFolders(repositoryRoot));
const lines = readPackageReports(packages);
console.log(["", "── test summary ──", ...formatSummary(lines)].join("\n"));
process.exit(allPassed(lines) ? 0 : 1);
