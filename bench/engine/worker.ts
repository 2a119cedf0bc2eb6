/**
 * One engine process of a multi-process benchmark run (PostgreSQL only), configured by the BENCH_*
 * environment run.ts sets. Prints "ready" once claiming; on SIGTERM stops and prints its peak RSS as JSON.
 */

import { StateEngine } from "@racksmith/core/engine";
import { openDatabase } from "@racksmith/server";
import { benchChain, DatabaseRecorder } from "./chain.js";

const setting = (name: string): string => {
  const value = process.env[`BENCH_${name}`];
  if (value === undefined) throw new Error(`BENCH_${name} is not set`);
  return value;
};

const database = await openDatabase({ url: setting("DATABASE_URL"), schema: setting("SCHEMA") });
const engine = new StateEngine({
  database,
  processorId: setting("WORKER"),
  machines: [benchChain(Number(setting("STATES")), new DatabaseRecorder(database))],
  config: JSON.parse(setting("ENGINE_CONFIG")),
});
await engine.start();
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void engine
    .stop({ graceMs: 1_000 })
    .then(() => database.close())
    .finally(() => {
      process.stdout.write(`${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
      process.exit(0);
    });
});
