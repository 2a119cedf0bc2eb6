import { type HostTest, VALIDATION_RUN_CONTEXTS } from "@racksmith/core";
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { renderRecord, renderTable } from "../output/table.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

/** A machine validation test as the service's REST API returns it (`/api/v1/validation/tests`). */
export interface ValidationTestJson extends HostTest {
  builtIn: boolean;
  updatedAt: string;
}

/** One test's outcome in a run. */
export interface TestResultJson {
  testId: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  startedAt: string;
  endedAt: string;
  timedOut: boolean;
  passed: boolean;
  message: string;
}

/** A validation run on a host (`/api/v1/validation/runs/{id}`). */
export interface ValidationRunJson {
  id: string;
  machineId: string;
  context: string;
  requestedBy: "lifecycle" | "operator";
  tests: string[];
  unschedulable: Array<{ testId: string; reason: string }>;
  status: "pending" | "completed";
  passed: boolean | null;
  createdAt: string;
  completedAt: string | null;
  results: TestResultJson[];
}

interface ServerFlags {
  server?: string;
  json?: boolean;
}

/** The flags `test add` and `test update` share; the lists are empty when not given. */
interface TestFlags extends ServerFlags {
  name?: string;
  command?: string;
  timeoutMs?: string;
  arg: string[];
  context: string[];
  platform: string[];
  sku: string[];
  description?: string;
}

const TEST_COLUMNS = ["id", "name", "command", "contexts", "enabled", "verified", "builtIn", "version"];
const RESULT_COLUMNS = ["testId", "passed", "exitCode", "timedOut", "message"];

const CONTEXTS = VALIDATION_RUN_CONTEXTS.join(", ");
const collect = (value: string, previous: string[]): string[] => [...previous, value];
const testPath = (id: string) => `/api/v1/validation/tests/${encodeURIComponent(id)}`;
const runPath = (id: string) => `/api/v1/validation/runs/${encodeURIComponent(id)}`;
const hostRunsPath = (host: string) => `/api/v1/machines/${encodeURIComponent(host)}/validation/runs`;

/** The options both `add` and `update` take (`--command` and `--timeout-ms` differ: required for `add`). */
function testOptions(command: Command): Command {
  return command
    .option("--name <name>", "display name (default: its id)")
    .option("--arg <arg>", "an argument to the command (repeatable, in order)", collect, [])
    .option("--context <context>", `when it runs (repeatable): ${CONTEXTS}`, collect, [])
    .option("--platform <platform>", "only on hosts of this platform (repeatable)", collect, [])
    .option("--sku <sku>", "only on hosts of this SKU (repeatable)", collect, [])
    .option("--description <text>", "what the test checks");
}

function timeoutMs(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`--timeout-ms must be a whole number ≥ 1, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** Only the fields the user gave: the service keeps the rest (on update) or defaults them (on add). */
function testFields(flags: TestFlags): Record<string, unknown> {
  const fields = {
    name: flags.name,
    command: flags.command,
    args: flags.arg,
    timeoutMs: flags.timeoutMs === undefined ? undefined : timeoutMs(flags.timeoutMs),
    platforms: flags.platform,
    skus: flags.sku,
    contexts: flags.context,
    description: flags.description,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );
}

/** People: the run as a record, then one row per test's result; `--json`: the run as the API has it. */
function showRun(io: CliIo, run: ValidationRunJson, json: boolean): void {
  const header = renderRecord({
    id: run.id,
    machineId: run.machineId,
    context: run.context,
    requestedBy: run.requestedBy,
    status: run.status,
    passed: run.passed ?? "-",
    createdAt: run.createdAt,
    completedAt: run.completedAt,
    ...(run.unschedulable.length
      ? { unschedulable: run.unschedulable.map((u) => `${u.testId}: ${u.reason}`) }
      : {}),
  });
  const rows = run.results.map((r) => ({
    testId: r.testId,
    passed: r.passed,
    exitCode: r.exitCode ?? "-",
    timedOut: r.timedOut,
    // A table row is one line.
    message: r.message.replace(/\n/g, " / "),
  }));
  const human = `${header}\nRESULTS\n${renderTable(rows, RESULT_COLUMNS)}`;
  printOutput(io, { kind: "record", value: run, human }, json);
}

/** `racksmith validation …`: machine validation tests and their runs on hosts, over the service's REST API. */
export function defineValidationCommand(command: Command, io: CliIo): void {
  const client = (flags: ServerFlags) => new ServiceClient(flags, io);
  const test = command.command("test").description("the validation tests the service knows");

  addServerFlags(test.command("list").description("every validation test")).action(
    async (flags: ServerFlags) => {
      const { tests } = await client(flags).get<{ tests: ValidationTestJson[] }>("/api/v1/validation/tests");
      const json = Boolean(flags.json);
      const rows = json ? tests : tests.map((t) => ({ ...t, contexts: t.contexts.join(",") }));
      printOutput(io, { kind: "list", rows, columns: TEST_COLUMNS }, json);
    },
  );

  addServerFlags(
    testOptions(
      test
        .command("add")
        .description("add a test (unverified: it runs only when an on-demand run names it, until `verify`)")
        .requiredOption("--id <id>", "the test's id")
        .requiredOption("--command <command>", "the command the host runs")
        .requiredOption("--timeout-ms <ms>", "how long it may run"),
    ).option("--disabled", "add it disabled"),
  ).action(async (flags: TestFlags & { id: string; disabled?: boolean }) => {
    const body = { id: flags.id, ...testFields(flags), ...(flags.disabled ? { enabled: false } : {}) };
    const added = await client(flags).request<ValidationTestJson>("POST", "/api/v1/validation/tests", body);
    printOutput(io, { kind: "record", value: added }, Boolean(flags.json));
  });

  addServerFlags(
    testOptions(
      test
        .command("update")
        .description("change an operator's test (it is unverified again); built-in tests are read-only")
        .argument("<id>")
        .option("--command <command>", "the command the host runs")
        .option("--timeout-ms <ms>", "how long it may run"),
    )
      .option("--enable", "enable it")
      .option("--disable", "disable it"),
  ).action(async (id: string, flags: TestFlags & { enable?: boolean; disable?: boolean }) => {
    if (flags.enable && flags.disable) throw new UsageError("give at most one of --enable and --disable");
    const body = {
      ...testFields(flags),
      ...(flags.enable || flags.disable ? { enabled: Boolean(flags.enable) } : {}),
    };
    if (Object.keys(body).length === 0) throw new UsageError("give at least one field to change");
    const updated = await client(flags).request<ValidationTestJson>("PATCH", testPath(id), body);
    printOutput(io, { kind: "record", value: updated }, Boolean(flags.json));
  });

  const actions = [
    ["enable", "enable a test"],
    ["disable", "disable a test (it runs in no context)"],
    ["verify", "mark an operator's test verified: it then runs in its contexts"],
  ] as const;
  for (const [action, description] of actions) {
    addServerFlags(test.command(action).description(description).argument("<id>")).action(
      async (id: string, flags: ServerFlags) => {
        const shown = await client(flags).request<ValidationTestJson>("POST", `${testPath(id)}/${action}`);
        printOutput(io, { kind: "record", value: shown }, Boolean(flags.json));
      },
    );
  }

  addServerFlags(
    command
      .command("run")
      .description("run validation tests on a Ready, unassigned host now (default: its on-demand tests)")
      .argument("<host>")
      .option("--tests <ids>", "comma-separated test ids to run (unverified ones too)"),
  ).action(async (host: string, flags: ServerFlags & { tests?: string }) => {
    const tests = flags.tests
      ?.split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (tests?.length === 0) throw new UsageError("--tests names no test");
    const body = tests ? { tests } : {};
    const run = await client(flags).request<ValidationRunJson>("POST", hostRunsPath(host), body);
    showRun(io, run, Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("results")
      .description("a host's newest validation run (or --run's) with each test's result")
      .argument("<host>")
      .option("--run <id>", "this run instead of the newest"),
  ).action(async (host: string, flags: ServerFlags & { run?: string }) => {
    const json = Boolean(flags.json);
    if (flags.run) {
      return showRun(io, await client(flags).get<ValidationRunJson>(runPath(flags.run)), json);
    }
    const { runs } = await client(flags).get<{ runs: ValidationRunJson[] }>(hostRunsPath(host));
    const [newest] = runs;
    if (newest) showRun(io, newest, json);
    else printOutput(io, { kind: "message", text: `no validation runs for ${host}`, json: [] }, json);
  });
}
