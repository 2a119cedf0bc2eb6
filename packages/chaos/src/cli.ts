import { parseArgs } from "node:util";
import type { ChaosForm, ChaosScenario, ScenarioResult } from "./scenario.js";
import { SCENARIOS } from "./scenarios.js";
import { summaryTable } from "./summary.js";

// The suite runs from sources (`--conditions=@racksmith/source`); plugins and the drivers' `./testing`
// behaviors loaded by path must come from sources too, never from a `dist/` that is stale or not built.
process.env.RACKSMITH_PLUGIN_CONDITIONS ||= "@racksmith/source";

const { values } = parseArgs({
  options: {
    form: { type: "string", default: "short" },
    only: { type: "string", multiple: true },
  },
});
if (values.form !== "short" && values.form !== "long") {
  console.error(`--form must be short or long, not ${JSON.stringify(values.form)}`);
  process.exit(2);
}
const form: ChaosForm = values.form;
const unknown = (values.only ?? []).filter((name) => !SCENARIOS.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown scenario(s) ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}`,
  );
  process.exit(2);
}
const chosen = values.only?.length ? SCENARIOS.filter((s) => values.only?.includes(s.name)) : SCENARIOS;
const databaseUrl = process.env.RACKSMITH_TEST_DATABASE_URL || undefined;

const results: Array<{ scenario: ChaosScenario; result: ScenarioResult }> = [];
for (const scenario of chosen) {
  const started = Date.now();
  console.log(`── chaos ${scenario.name}: ${scenario.description}`);
  let result: ScenarioResult;
  try {
    result = await scenario.run({
      form,
      databaseUrl,
      log: (line) => console.log(`   ${scenario.name}: ${line}`),
    });
  } catch (error) {
    result = { measures: [], failures: [`crashed: ${(error as Error)?.stack ?? String(error)}`] };
  }
  result.measures.push({ measure: "seconds", value: Math.round((Date.now() - started) / 1000) });
  if (result.skipped) console.log(`   ${scenario.name} did not run: ${result.skipped}`);
  for (const failure of result.failures) console.log(`   ${scenario.name} FAILED: ${failure}`);
  results.push({ scenario, result });
}
console.log(summaryTable(results));
const failed = results.filter(({ result }) => result.failures.length > 0);
if (failed.length > 0) {
  console.log(`chaos failed: ${failed.map(({ scenario }) => scenario.name).join(", ")}`);
  process.exit(1);
}
console.log(`chaos passed: ${results.length} scenario(s)`);
// Child processes and sockets of a scenario are closed by it; exit anyway so a leaked handle cannot hang CI.
process.exit(0);
