/**
 * Redfish exploration benchmark (never part of `npm test`; nothing is asserted, it prints figures):
 *
 *   npm run bench:redfish -- [--mockup DIR] [--seconds N] [--slices K] [--path cli|site] [--per-bmc M]
 *                            [--standard] [--no-sushy] [--json]
 *
 * Serves a vendor capture with the project's mockup server (a process of its own) and explores it serially
 * with Racksmith's client and drivers as `racksmith redfish explore` (or the site explorer) does, and with
 * OpenStack's sushy when python3-sushy is installed, for the same time against the same server, the two
 * taking turns in K slices: explorations/s, requests per exploration, CPU, and the ratio of the two rates.
 * See README.md.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_MOCKUP_CREDENTIALS } from "@racksmith/testkit";
import { startMockupProcess } from "./mockupProcess.js";
import { benchDrivers, type ExplorePath, exploreFor, exploreOnce } from "./racksmith.js";
import { runSushy, type SushyFigures, sushyMissing } from "./sushy.js";
import { round, Tally } from "./tally.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const { values } = parseArgs({
  options: {
    mockup: { type: "string", default: resolve(REPO, "..", "shared", "mockups", "dell") },
    seconds: { type: "string", default: "20" },
    slices: { type: "string", default: "4" },
    path: { type: "string", default: "cli" },
    "per-bmc": { type: "string", default: "4" },
    standard: { type: "boolean", default: false },
    "no-sushy": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const root = resolve(values.mockup);
const seconds = Number(values.seconds);
const perBmc = Number(values["per-bmc"]);
const slices = Number(values.slices);
if (!existsSync(resolve(root, "redfish", "v1"))) {
  console.error(
    `bench:redfish needs a Redfish capture: ${root} holds no redfish/v1 (the shared ../shared/mockups ` +
      "folder is absent?); give one with --mockup DIR",
  );
  process.exit(2);
}
const valid = seconds > 0 && perBmc >= 1 && Number.isInteger(slices) && slices >= 1;
if (!valid || (values.path !== "cli" && values.path !== "site")) {
  console.error("--seconds must be > 0, --slices a whole number >= 1, --per-bmc >= 1 and --path cli or site");
  process.exit(2);
}
const path: ExplorePath = values.path === "site" ? "site" : "cli";
const progress = (line: string) => {
  if (!values.json) console.log(line);
};

const server = await startMockupProcess(root);
const credentials = DEFAULT_MOCKUP_CREDENTIALS;
const target = {
  path,
  url: server.url,
  credentials,
  drivers: await benchDrivers(values.standard),
  maxConcurrency: perBmc,
};
try {
  // One untimed exploration warms the JIT, the metadata cache and the server's file cache.
  await exploreOnce(target);
  const missing = values["no-sushy"] ? "--no-sushy" : sushyMissing();
  progress(
    `bench:redfish — ${root} at ${server.url}, ${seconds} s each in ${slices} slices, ${path} path, ` +
      `${perBmc} requests per BMC${missing ? `; sushy not run (${missing})` : ""}`,
  );
  const racksmith = new Tally();
  const sushy = new Tally();
  let driver = "";
  let sushyRun: SushyFigures | undefined;
  // The clients take turns, so a burst of other load on a shared machine falls on both alike.
  for (let slice = 0; slice < slices; slice++) {
    const before = await server.stats();
    const loop = await exploreFor(target, seconds / slices);
    const after = await server.stats();
    racksmith.add(loop, before, after);
    driver = loop.driver;
    progress(`racksmith slice ${slice + 1}: ${round(loop.explorations / loop.seconds)} explorations/s`);
    if (missing) continue;
    sushyRun = await runSushy(server.url, credentials, seconds / slices);
    sushy.add(sushyRun, after, await server.stats());
    progress(`sushy slice ${slice + 1}: ${round(sushyRun.explorations / sushyRun.seconds)} explorations/s`);
  }
  const summary: Record<string, unknown> = {
    mockup: root,
    seconds,
    slices,
    path,
    perBmc,
    racksmith: { driver, ...racksmith.figures() },
    sushy: sushyRun
      ? {
          version: sushyRun.sushy,
          ...sushy.figures(),
          read: { systems: sushyRun.systems, macs: sushyRun.macs, firmware: sushyRun.firmware },
        }
      : { skipped: missing },
    ...(sushyRun ? { ratio: round(racksmith.rate / sushy.rate) } : {}),
  };
  console.log(values.json ? JSON.stringify(summary) : summary);
} finally {
  await server.stop();
}
