/**
 * A state engine in its own process, for the multi-process tests: runs the chain machine against the
 * PostgreSQL schema it is given, prints "ready" once claiming, and stops cleanly on SIGTERM.
 * Run with `node --import tsx test/engine/worker.ts` and the WORKER_* environment below.
 */
import { openDatabase } from "@racksmith/server";
import { StateEngine } from "../../src/state/index.js";
import { chainMachine } from "./chainMachine.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const worker = env("WORKER_NAME");
const database = await openDatabase({
  url: env("RACKSMITH_TEST_DATABASE_URL"),
  schema: env("WORKER_SCHEMA"),
});
const engine = new StateEngine({
  database,
  processorId: worker,
  machines: [
    chainMachine({
      database,
      worker,
      steps: Number(env("WORKER_STEPS")),
      slowState: process.env.WORKER_SLOW_STATE,
      slowMs: Number(process.env.WORKER_SLOW_MS ?? 0),
    }),
  ],
  config: JSON.parse(process.env.WORKER_ENGINE_CONFIG ?? "{}"),
});
await engine.start();
process.stdout.write("ready\n");

process.once("SIGTERM", () => {
  engine
    .stop({ graceMs: 2_000 })
    .then(() => database.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      },
    );
});
