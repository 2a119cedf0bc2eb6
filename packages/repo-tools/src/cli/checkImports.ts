// `npm run lint` runs this: packages import each other only through declared exports and dependencies, and
// the feature folders inside a package do not import each other in a cycle. `--verbose` also lists the
// allowed cycle steps and the imports that skip a feature's index.ts (a warning count otherwise).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles, packageFolders, repositoryRoot } from "../files/index.ts";
import {
  ALLOWED_STEPS,
  bypassesIndex,
  COMPOSITION_FILES,
  checkedEdges,
  findFeatureCycles,
  readWorkspace,
  scanImports,
  staleSteps,
} from "../imports/index.ts";

// Imports of another feature folder that skip its index.ts are a warning while there are some; once the
// count reaches zero, set this to true so that none comes back.
const INDEX_BYPASS_IS_ERROR = false;

const verbose = process.argv.includes("--verbose");
const workspace = readWorkspace(repositoryRoot, packageFolders(repositoryRoot));
const scan = scanImports(listFiles(repositoryRoot), workspace, (file) =>
  readFileSync(join(repositoryRoot, file), "utf8"),
);
const srcOf = (name: string): string => `${workspace.get(name)?.dir ?? name}/src`;

let errors = 0;
for (const v of scan.boundaries) {
  console.error(`${v.file}:${v.line}: ${v.rule}: "${v.specifier}": ${v.message}`);
  errors++;
}

for (const [name, edges] of scan.featureEdges) {
  for (const cycle of findFeatureCycles(checkedEdges(name, edges, COMPOSITION_FILES, ALLOWED_STEPS))) {
    errors++;
    const group =
      cycle.features.length > cycle.loop.length - 1 ? ` (group: ${cycle.features.join(", ")})` : "";
    console.error(`${srcOf(name)}: import cycle between feature folders: ${cycle.loop.join(" → ")}${group}`);
    for (const e of cycle.edges) {
      const kind = e.typeOnly ? " (type only)" : "";
      console.error(`  ${e.from} → ${e.to}: ${srcOf(name)}/${e.file}:${e.line} imports ${e.target}${kind}`);
    }
  }
}
const stale = staleSteps(scan.featureEdges, COMPOSITION_FILES, ALLOWED_STEPS);
for (const step of stale) {
  console.error(
    `packages/repo-tools/src/imports/allowlist.ts: ${step.package}'s ${step.from} → ${step.to} no longer closes` +
      " a cycle; remove the entry",
  );
  errors++;
}
if (verbose) {
  for (const step of ALLOWED_STEPS) {
    console.log(`allowed cycle step ${step.package} ${step.from} → ${step.to}: ${step.reason}`);
  }
}

const bypasses = [...scan.featureEdges].flatMap(([name, edges]) =>
  edges.filter(bypassesIndex).map((edge) => ({ src: srcOf(name), edge })),
);
if (verbose || INDEX_BYPASS_IS_ERROR) {
  const say = INDEX_BYPASS_IS_ERROR ? console.error : console.log;
  for (const { src, edge } of bypasses) {
    say(`${src}/${edge.file}:${edge.line}: imports ${edge.target}, not ${edge.to}/index.ts`);
  }
}
if (INDEX_BYPASS_IS_ERROR) errors += bypasses.length;

if (errors > 0) {
  console.error(
    `\n${errors} import problem(s). Import another package only through its declared exports and dependencies,` +
      "\nand break cycles between feature folders (see packages/repo-tools/README.md).",
  );
  process.exit(1);
}
console.log(
  `import check: ${scan.files} files, package boundaries kept, no import cycle between feature folders ` +
    `(${ALLOWED_STEPS.length - stale.length} known steps allowed)` +
    (bypasses.length && !INDEX_BYPASS_IS_ERROR
      ? `; warning: ${bypasses.length} import(s) of another feature folder skip its index.ts (--verbose lists them)`
      : ""),
);
